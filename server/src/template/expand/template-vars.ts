// Template variables as pSConfig expands them (psconfig.md §2): on the JSON-serialised object, standalone
// `"{% VAR %}"` replaced by the raw JSON value, embedded uses spliced in without their quotes, then IPv6
// literals after http(s):// bracketed, then parsed back. A template is compiled once per task and filled per
// combination, which keeps a 40,000-task mesh in the low hundreds of milliseconds.
import { isIPv6 } from 'node:net';
import { AddressNode, Json } from './model';

/** The scanner of BaseTemplate.expand: at least one whitespace after `{%` and before `%}`. */
const VAR_RE = /\{%\s+(.+?)\s+%\}/g;
const JQ_VAR_RE = /^jq (.+)$/;

interface Slot {
  v: number;
  standalone: boolean;
}

export interface CompiledTemplate {
  parts: (string | Slot)[];
  /** Distinct variable names, in first-use order. */
  vars: string[];
  /** jq scripts of `jq ...` variables, as jq receives them (escaped quotes restored), by var index. */
  jqScripts: Map<number, string>;
}

/** Serialise and split once; `undefined` input (no reference, ...) stays undefined. */
export function compileTemplate(value: Json): CompiledTemplate {
  const text = JSON.stringify(value);
  const parts: (string | Slot)[] = [];
  const vars: string[] = [];
  const index = new Map<string, number>();
  const jqScripts = new Map<number, string>();
  let last = 0;
  for (const m of text.matchAll(VAR_RE)) {
    const name = m[1];
    let v = index.get(name);
    if (v === undefined) {
      v = vars.length;
      vars.push(name);
      index.set(name, v);
      const jq = JQ_VAR_RE.exec(name);
      // json.dumps escaped the script's quotes; pSConfig un-escapes exactly `\"` before running jq.
      if (jq) jqScripts.set(v, jq[1].replace(/\\"/g, '"'));
    }
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const standalone = text[start - 1] === '"' && text[end] === '"' && start - 1 >= last;
    parts.push(text.slice(last, standalone ? start - 1 : start));
    parts.push({ v, standalone });
    last = standalone ? end + 1 : end;
  }
  parts.push(text.slice(last));
  return { parts, vars, jqScripts };
}

/** Per-combination inputs of the variables. */
export interface VarScope {
  members: AddressNode[];
  scheduler: AddressNode;
  flip: boolean;
  /** Result of each jq script for this combination (first output), or its error. */
  jq(script: string): { ok: true; values: unknown[] } | { ok: false; error: string };
}

/** A variable's value as raw JSON text (what replaces `"{% VAR %}"`), or the error pSConfig reports. */
export type VarValue = { ok: true; raw: string } | { ok: false; error: string };

const quote = (s: string): string => `"${s}"`; // pSConfig does not escape: a `"` in an address breaks the JSON.

function member(scope: VarScope, idxText: string): AddressNode | string {
  const idx = Number(idxText);
  if (idx >= scope.members.length) return `Index is too big in group[${idxText}] template variable`;
  return scope.members[idx];
}

export function expandVar(name: string, scope: VarScope): VarValue {
  let m: RegExpExecArray | null;
  if ((m = /^address\[(\d+)\]$/.exec(name))) {
    const n = member(scope, m[1]);
    if (typeof n === 'string') return { ok: false, error: n };
    return n.address ? { ok: true, raw: quote(n.address) } : { ok: false, error: `Template variable group[${m[1]}] does not have an address` };
  }
  if ((m = /^pscheduler_address\[(\d+)\]$/.exec(name))) {
    const n = member(scope, m[1]);
    if (typeof n === 'string') return { ok: false, error: n };
    const a = (typeof n.data['pscheduler-address'] === 'string' && n.data['pscheduler-address']) || n.address;
    if (!a) return { ok: false, error: `Template variable group[${m[1]}] does not have a pscheduler-address nor address` };
    return { ok: true, raw: quote(isIPv6(a) ? `[${a}]` : a) };
  }
  if ((m = /^lead_bind_address\[(\d+)\]$/.exec(name))) {
    const n = member(scope, m[1]);
    if (typeof n === 'string') return { ok: false, error: n };
    const a = (typeof n.data['lead-bind-address'] === 'string' && n.data['lead-bind-address']) || n.address;
    return a ? { ok: true, raw: quote(a) } : { ok: false, error: `Template variable group[${m[1]}] does not have a lead-bind-address or address` };
  }
  if (name === 'scheduled_by_address') {
    const a = scope.scheduler.address;
    return a ? { ok: true, raw: quote(a) } : { ok: false, error: 'scheduled_by_address cannot be determined. This is likely a bug in the software.' };
  }
  if (name === 'flip') return { ok: true, raw: scope.flip ? 'true' : 'false' };
  if (name === 'localhost') return scope.flip ? expandVar('scheduled_by_address', scope) : { ok: true, raw: '"localhost"' };
  if ((m = JQ_VAR_RE.exec(name))) {
    const r = scope.jq(m[1].replace(/\\"/g, '"'));
    if (!r.ok) return { ok: false, error: `Error handling jq template variable: ${r.error}` };
    if (r.values.length === 0) return { ok: false, error: 'Error handling jq template variable: jq returned no output' };
    return { ok: true, raw: JSON.stringify(r.values[0]) ?? 'null' };
  }
  return { ok: false, error: `Unrecognized template variable ${name}` };
}

// ---- IPv6 bracketing (_bracket_ipv6_url) ----------------------------------------------------------------------

const URL_HOST_RE = /(https?):\/\/([0-9A-Fa-f:.]+)/g;

/** `http://2001:db8::1/x` → `http://[2001:db8::1]/x`: the longest leading IPv6 literal after the scheme. */
export function bracketIpv6Urls(json: string): string {
  if (!json.includes('://')) return json;
  return json.replace(URL_HOST_RE, (whole, scheme: string, host: string) => {
    for (let end = host.length; end > 1; end--) {
      const cand = host.slice(0, end);
      if (cand.includes(':') && isIPv6(cand)) return `${scheme}://[${cand}]${host.slice(end)}`;
    }
    return whole;
  });
}

export type FillResult = { ok: true; value: Json } | { ok: false; error: string };

/**
 * Fill a compiled template for one combination. `values` is memoised by the caller per combination so that a
 * variable used in the test and in an archive is expanded once, as pSConfig expands each distinct variable once.
 */
export function fillTemplate(t: CompiledTemplate, value: (name: string) => VarValue): FillResult {
  const raws: string[] = [];
  const embedded: string[] = [];
  for (let v = 0; v < t.vars.length; v++) {
    const r = value(t.vars[v]);
    if (!r.ok) return { ok: false, error: `Unable to expand variable ${t.vars[v]}: ${r.error}` };
    raws.push(r.raw);
    embedded.push(r.raw.replace(/^"/, '').replace(/"$/, ''));
  }
  let out = '';
  for (const p of t.parts) out += typeof p === 'string' ? p : p.standalone ? raws[p.v] : embedded[p.v];
  out = bracketIpv6Urls(out);
  try {
    return { ok: true, value: JSON.parse(out) as Json };
  } catch (e) {
    return { ok: false, error: `Unable to create valid JSON after expanding template, error: ${(e as Error).message}` };
  }
}
