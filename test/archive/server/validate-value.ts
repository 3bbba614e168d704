// Validation of posted values per value class, with esmond's messages (reference esmond.md §1d). Returns the value
// as stored or an error message (the caller answers 400).
import type { ValueClass } from './event-types';

export type Checked = { ok: true; value: unknown } | { ok: false; error: string };

/** Python int(): ints, floats (truncated) and integer strings. */
function pyInt(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

function pyFloat(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

export function checkValue(cls: ValueClass, v: unknown): Checked {
  switch (cls) {
    case 'integer': {
      const n = pyInt(v);
      return n === undefined ? { ok: false, error: 'Value must be an integer' } : { ok: true, value: n };
    }
    case 'float': {
      const n = pyFloat(v);
      // esmond stores int(v * 10000): four decimals, truncated.
      return n === undefined
        ? { ok: false, error: 'Value must be a floating point number' }
        : { ok: true, value: Math.trunc(n * 10000) / 10000 };
    }
    case 'percentage': {
      if (!v || typeof v !== 'object' || Array.isArray(v))
        return { ok: false, error: "Missing required field 'numerator'" };
      const o = v as Record<string, unknown>;
      if (!('numerator' in o)) return { ok: false, error: "Missing required field 'numerator'" };
      if (!('denominator' in o)) return { ok: false, error: "Missing required field 'denominator'" };
      const num = pyInt(o.numerator);
      if (num === undefined) return { ok: false, error: "The field 'numerator' must be an integer" };
      const den = pyInt(o.denominator);
      if (den === undefined) return { ok: false, error: "The field 'denominator' must be an integer" };
      if (den <= 0) return { ok: false, error: "The field 'denominator' must be greater than 0" };
      if (num < 0) return { ok: false, error: "The field 'numerator' cannot be negative" };
      return { ok: true, value: { numerator: num, denominator: den } };
    }
    case 'histogram': {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, error: 'Invalid histogram provided' };
      const out: Record<string, number> = {};
      for (const [k, c] of Object.entries(v as Record<string, unknown>)) {
        const n = pyInt(c);
        if (n === undefined) return { ok: false, error: 'Value of histogram must be an integer' };
        out[k] = n;
      }
      return { ok: true, value: out };
    }
    case 'subinterval': {
      if (!Array.isArray(v) || v.length === 0) return { ok: false, error: 'Invalid subintervals provided' };
      for (let i = 0; i < v.length; i++) {
        const s = v[i] as Record<string, unknown> | null;
        if (!s || typeof s !== 'object') return { ok: false, error: 'Invalid subintervals provided' };
        for (const f of ['start', 'duration', 'val']) {
          if (!(f in s)) return { ok: false, error: `Interval must contain '${f}' field at position ${i}` };
        }
        if (pyFloat(s.start) === undefined || pyFloat(s.duration) === undefined) {
          return { ok: false, error: "Subinterval 'start' and 'duration' must be floating point numbers" };
        }
      }
      return { ok: true, value: v };
    }
    case 'json':
      return { ok: true, value: v };
  }
}

/** Python int() of a timestamp (int or integer string). */
export function checkTs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.trunc(Number(v));
  return undefined;
}
