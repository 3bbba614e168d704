// How MeshConfig scalars read. The MeshConfig schema (perfsonar/perl-shared
// libperfsonar/lib/perfSONAR_PS/Client/PSConfig/Translators/MeshConfig/Schema.pm, definitions Boolean, Integer,
// Number) lets every boolean and number be written as a string too ("1", "false", "600", "0.1"); pSConfig's Perl
// translator (…/MeshConfig/Config.pm) reads them with Perl's truthiness, `int()` and `* 1.0`.
//
// One deliberate difference, listed in docs/migration.md: Perl treats the string "false" as true (any non-empty
// string but "0" is true), so `"ipv4_only": "false"` would have set ip-version 4. Here "false" is false, as the
// MeshConfig schema means it.

import { isObject } from '../../../../common/json';

export type JsonObject = Record<string, unknown>;

export function arrayOf(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A MeshConfig Boolean: true, 1, "1", "true"; false for false, 0, "0", "false", "" and anything absent. */
export function isTrue(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  return false;
}

/** Perl's `if ($x)` on a number field: present, and not 0, "0" or "". */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '' && v !== 0 && v !== '0' && v !== false;
}

/** Perl's `defined $x`. */
export function isDefined(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** A number as MeshConfig writes it (a JSON number or a numeric string); undefined when it is not one. */
export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

/** Perl's `int()`: the number truncated towards zero. */
export function intOf(v: unknown): number | undefined {
  const n = numberOf(v);
  return n === undefined ? undefined : Math.trunc(n);
}

/**
 * Seconds as an ISO 8601 duration, `PT<n>S`. The Perl translator truncates to whole seconds (`_seconds_to_iso`);
 * a fractional value keeps its fraction here (0.5 s between pings would otherwise become PT0S).
 */
export function isoSeconds(v: unknown): string | undefined {
  const n = numberOf(v);
  if (n === undefined || n < 0) return undefined;
  const whole = Math.trunc(n);
  return whole === n ? `PT${whole}S` : `PT${n}S`;
}

/** A pSConfig object name from free text, as `_format_name` makes it: whitespace to `_`, then only
 *  `[a-zA-Z0-9:._\-]` kept. (Perl's class also keeps a backslash, which the pSConfig name pattern refuses.) */
export function formatName(text: string): string {
  return text.replace(/\s/g, '_').replace(/[^a-zA-Z0-9:._-]/g, '');
}

/** Canonical JSON (sorted keys): the identity pSConfig's checksums give objects (BaseNode::checksum). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** The host part of a URL as Perl's URI->host gives it (without brackets for IPv6), or undefined. */
export function urlHost(url: string): string | undefined {
  try {
    const host = new URL(url).hostname;
    return host.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}
