// Template variables as pSConfig expands them (psconfig.md §2): on the JSON-serialised object, standalone
// `"{% VAR %}"` replaced by the raw JSON value, embedded uses spliced in without their quotes, then IPv6
// literals after http(s):// bracketed, then parsed back. A template is compiled once per task and filled per
// combination, which keeps a 40,000-task mesh in the low hundreds of milliseconds.
import { isIPv6 } from 'node:net';
import { AddressNode, Json } from './template-view';
import { bracketIpv6Urls } from './ipv6-url';
import { compileTree, fillTree, TreeNode } from './template-tree';
import { cacheKey } from '../own-string';

export { bracketIpv6Urls };

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
  /** The literal text alone already has an IPv6 URL to bracket. */
  staticBracket: boolean;
  /** Some variable directly follows `http://` or `https://`. */
  slotAfterScheme: boolean;
  /** Parsed once when there are no variables: shared, read-only. */
  constant?: Json;
  /** The structural fill (template-tree.ts), when it is exact for this template. */
  tree?: TreeNode;
  /** How many slots each variable fills (for the fill budget without a walk over every slot). */
  uses: number[];
}

let treeFill = true;
/** Tests compare the structural fill with the string path on the same inputs. */
export function setTreeFill(enabled: boolean): void {
  treeFill = enabled;
}

function endsWithScheme(s: string): boolean {
  return s.endsWith('http://') || s.endsWith('https://');
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
  const literal = parts.filter((p): p is string => typeof p === 'string');
  const staticBracket = literal.some((p) => bracketIpv6Urls(p) !== p);
  // endsWith, not /https?:\/\/$/: the regex tries every position of a long literal, once per variable.
  const slotAfterScheme = parts.some(
    (p, i) => typeof p !== 'string' && i > 0 && endsWithScheme(parts[i - 1] as string),
  );
  const uses = new Array<number>(vars.length).fill(0);
  for (const p of parts) if (typeof p !== 'string') uses[p.v]++;
  const compiled: CompiledTemplate = { parts, vars, jqScripts, staticBracket, slotAfterScheme, uses };
  if (!vars.length) compiled.constant = JSON.parse(bracketIpv6Urls(text)) as Json;
  else compiled.tree = compileTree(value, index, parts.length >> 1);
  return compiled;
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

type VarKind =
  | 'address'
  | 'pscheduler_address'
  | 'lead_bind_address'
  | 'scheduled_by_address'
  | 'flip'
  | 'localhost'
  | 'jq'
  | 'unknown';
interface VarDesc {
  kind: VarKind;
  index: number;
  indexText: string;
  script: string;
}

const INDEXED_RE = /^(address|pscheduler_address|lead_bind_address)\[(\d+)\]$/;
const descs = new Map<string, VarDesc>();

/** What a variable name means, parsed once per distinct name (expansion runs per combination). */
function describe(name: string): VarDesc {
  let d = descs.get(name);
  if (d) return d;
  const m = INDEXED_RE.exec(name);
  const jq = JQ_VAR_RE.exec(name);
  if (m) d = { kind: m[1] as VarKind, index: Number(m[2]), indexText: m[2], script: '' };
  else if (name === 'scheduled_by_address' || name === 'flip' || name === 'localhost')
    d = { kind: name, index: 0, indexText: '', script: '' };
  else if (jq) d = { kind: 'jq', index: 0, indexText: '', script: jq[1].replace(/\\"/g, '"') };
  else d = { kind: 'unknown', index: 0, indexText: '', script: '' };
  if (descs.size > 10_000) descs.clear();
  const key = cacheKey(name); // a copy: a name cut from a compiled template would keep that template's text
  if (key !== undefined) descs.set(key, d);
  return d;
}

function scheduledBy(scope: VarScope): VarValue {
  const a = scope.scheduler.address;
  return a
    ? { ok: true, raw: quote(a) }
    : { ok: false, error: 'scheduled_by_address cannot be determined. This is likely a bug in the software.' };
}

export function expandVar(name: string, scope: VarScope): VarValue {
  const d = describe(name);
  switch (d.kind) {
    case 'address':
    case 'pscheduler_address':
    case 'lead_bind_address': {
      if (d.index >= scope.members.length)
        return { ok: false, error: `Index is too big in group[${d.indexText}] template variable` };
      const n = scope.members[d.index];
      if (d.kind === 'address') {
        return n.address
          ? { ok: true, raw: quote(n.address) }
          : { ok: false, error: `Template variable group[${d.indexText}] does not have an address` };
      }
      if (d.kind === 'pscheduler_address') {
        const a = (typeof n.data['pscheduler-address'] === 'string' && n.data['pscheduler-address']) || n.address;
        if (!a)
          return {
            ok: false,
            error: `Template variable group[${d.indexText}] does not have a pscheduler-address nor address`,
          };
        return { ok: true, raw: quote(isIPv6(a) ? `[${a}]` : a) };
      }
      const a = (typeof n.data['lead-bind-address'] === 'string' && n.data['lead-bind-address']) || n.address;
      return a
        ? { ok: true, raw: quote(a) }
        : { ok: false, error: `Template variable group[${d.indexText}] does not have a lead-bind-address or address` };
    }
    case 'scheduled_by_address':
      return scheduledBy(scope);
    case 'flip':
      return { ok: true, raw: scope.flip ? 'true' : 'false' };
    case 'localhost':
      // pSConfig 5.x returns it unquoted (psconfig parsers/template.py _parse_localhost ~107-113): text around it
      // makes `…localhost…`, alone in a string it makes the bare word `localhost` and the task's JSON does not parse
      // (parsers/base_template.py expand ~60-66), so the agent skips the task. Perl 4.x quoted it; 5.x is what runs.
      return scope.flip ? scheduledBy(scope) : { ok: true, raw: 'localhost' };
    case 'jq': {
      const r = scope.jq(d.script);
      if (!r.ok) return { ok: false, error: `Error handling jq template variable: ${r.error}` };
      if (r.values.length === 0)
        return { ok: false, error: 'Error handling jq template variable: jq returned no output' };
      return { ok: true, raw: JSON.stringify(r.values[0]) ?? 'null' };
    }
    default:
      return { ok: false, error: `Unrecognized template variable ${name}` };
  }
}

export type FillResult = { ok: true; value: Json } | { ok: false; error: string };

/** Characters the variables of one expansion may still add to the filled templates (all combinations together). */
export interface FillBudget {
  left: number;
  readonly total: number;
}

/**
 * 64 M characters: a 250,000-task mesh whose templates hold six 40-character variables fits; a 150 KB string of
 * `{% address[0] %}` repeated, filled for 1,500 combinations (300 M characters, more than a JavaScript string or
 * JSON.stringify can hold), does not.
 */
export const DEFAULT_FILL_BUDGET_CHARS = 64 * 1024 * 1024;

export function fillBudget(total = DEFAULT_FILL_BUDGET_CHARS): FillBudget {
  return { left: total, total };
}

function budgetError(b: FillBudget): string {
  return `The template variables of this template expand to more than ${Math.round(b.total / (1024 * 1024))} M characters over all combinations (a long text of variables repeated for every combination); expansion of this and later combinations stopped`;
}

/**
 * Fill a compiled template for one combination. `values` is memoised by the caller per combination so that a
 * variable used in the test and in an archive is expanded once, as pSConfig expands each distinct variable once.
 */
export function fillTemplate(t: CompiledTemplate, value: (name: string) => VarValue, budget?: FillBudget): FillResult {
  if (t.constant !== undefined) return { ok: true, value: t.constant };
  const raws: string[] = new Array<string>(t.vars.length);
  let bracket = t.staticBracket;
  for (let v = 0; v < t.vars.length; v++) {
    const r = value(t.vars[v]);
    if (!r.ok) return { ok: false, error: `Unable to expand variable ${t.vars[v]}: ${r.error}` };
    raws[v] = r.raw;
    // Only a value that carries a URL, or one placed right after a scheme, can create an IPv6 URL to bracket.
    if (!bracket && ((t.slotAfterScheme && r.raw.includes(':')) || r.raw.includes('://'))) bracket = true;
  }
  if (budget) {
    // Counted before anything is built: a template repeating a variable thousands of times in one string is
    // refused here instead of filling memory one combination at a time.
    for (let v = 0; v < raws.length; v++) budget.left -= t.uses[v] * raws[v].length;
    if (budget.left < 0) return { ok: false, error: budgetError(budget) };
  }
  if (t.tree && treeFill) {
    const value = fillTree(t.tree, raws);
    if (value !== undefined) return { ok: true, value };
  }
  let out = '';
  for (const p of t.parts) {
    if (typeof p === 'string') out += p;
    else if (p.standalone) out += raws[p.v];
    else out += stripQuotes(raws[p.v]);
  }
  if (bracket) out = bracketIpv6Urls(out);
  try {
    return { ok: true, value: JSON.parse(out) as Json };
  } catch (e) {
    return { ok: false, error: `Unable to create valid JSON after expanding template, error: ${(e as Error).message}` };
  }
}

/** Embedded uses lose one leading and one trailing quote (each independently, as pSConfig's two substitutions do). */
function stripQuotes(raw: string): string {
  const start = raw.charCodeAt(0) === 34 ? 1 : 0;
  const end = raw.length > start && raw.charCodeAt(raw.length - 1) === 34 ? raw.length - 1 : raw.length;
  return start === 0 && end === raw.length ? raw : raw.slice(start, end);
}
