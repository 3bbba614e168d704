// Which tool can run a test spec: the tool's enumerate (test types) and what its can-run program checks
// (pscheduler-tool-<name>/can-run), as recorded in schemas/pscheduler/tool-*.json. pScheduler picks, among the
// tools every participant offers, the first of the task's `tools` (or the most preferred) whose can-run says yes;
// when none can, the task is refused ("None of the participants could run this test").
import { memberProp, memberValue, type NodeLike } from './nodes';
import { allTools, tool as toolData, type ToolCondition, type ToolData } from './catalog';
import { urlScheme, urlSplit } from './rules';
import { isIPv4, isIPv6 } from './formats';
import type { Expansion } from './validate';

export interface ToolVerdict {
  tool: ToolData;
  canRun: boolean;
  reasons: string[];
}

export interface ToolCheckOptions {
  expansion?: (node: NodeLike, wantValues: boolean) => Expansion | undefined;
}

/** A spec value we can reason about: undefined when a template variable makes it unknowable. */
type Known = { value: unknown; node: NodeLike } | undefined;

function known(node: NodeLike, opts: ToolCheckOptions): Known {
  if (node.type === 'string' && (node.value as string).includes('{%') && opts.expansion) {
    const e = opts.expansion(node, true);
    if (e && (e.kind !== 'string' || !e.values || e.values.length !== 1)) return undefined;
    if (e?.kind === 'string' && e.values) return { value: e.values[0].value, node };
  }
  if (node.type === 'object' || node.type === 'array') return { value: node, node };
  return { value: node.value, node };
}

function isTemplated(node: NodeLike, opts: ToolCheckOptions): boolean {
  return node.type === 'string' && (node.value as string).includes('{%') && !!opts.expansion;
}

/** The tool's can-run for this test type and spec (an object node), with its reasons. */
export function toolVerdict(
  tool: ToolData,
  testType: string,
  spec: NodeLike,
  opts: ToolCheckOptions = {},
): ToolVerdict {
  const reasons: string[] = [];
  const canRun = canRunSpec(tool, testType, spec, opts, reasons);
  return { tool, canRun, reasons };
}

/**
 * Can the tool run it? Without `reasons` it answers at the first refusal and allocates nothing (most specs have
 * some tool, and every test of a large template is asked).
 */
export function canRunSpec(
  tool: ToolData,
  testType: string,
  spec: NodeLike,
  opts: ToolCheckOptions,
  reasons?: string[],
): boolean {
  if (!tool.tests.includes(testType)) {
    reasons?.push(tool.tests.length ? `runs only ${tool.tests.join(', ')} tests` : 'runs no test in pScheduler 5.x');
    return false;
  }
  let ok = true;
  const schemaNode = memberValue(spec, 'schema');
  if (tool.maxSchema !== null && schemaNode && !isTemplated(schemaNode, opts)) {
    // json_check_schema: a Python int (bools included) no higher than the tool's maximum
    const v = schemaNode.value;
    const int = (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean';
    if (!int || Number(v) > tool.maxSchema) {
      if (!reasons) return false;
      ok = false;
      reasons.push(
        int
          ? `accepts ${testType} specs up to schema ${tool.maxSchema}, not ${String(v)}`
          : 'needs an integer `schema` (json_check_schema)',
      );
    }
  }
  const supported = tool.supportedOptions;
  if (supported) {
    let unsupported: string[] | undefined;
    for (const prop of spec.children ?? []) {
      const key = prop.children?.[0]?.value as string | undefined;
      if (prop.comment || key === undefined || !prop.children?.[1] || supported.includes(key)) continue;
      if (!reasons) return false;
      if (!(unsupported ??= []).includes(key)) unsupported.push(key);
    }
    if (unsupported) {
      ok = false;
      reasons!.push(`does not take ${unsupported.map((k) => `\`${k}\``).join(', ')}`);
    }
  }
  for (const r of tool.rules ?? [])
    if (holds(r.when, testType, spec, opts) === true) {
      if (!reasons) return false;
      ok = false;
      reasons.push(r.reason);
    }
  return ok;
}

/** true / false, or undefined when a template variable hides the answer. */
/** A spec key's value: null when absent, undefined when a variable hides it. */
function valueOf(spec: NodeLike, key: string, opts: ToolCheckOptions): Known | null {
  const p = memberValue(spec, key);
  return p ? known(p, opts) : null;
}

function holds(c: ToolCondition, testType: string, spec: NodeLike, opts: ToolCheckOptions): boolean | undefined {
  if ('all' in c) {
    let result: boolean | undefined = true;
    for (const sub of c.all) {
      const h = holds(sub, testType, spec, opts);
      if (h === false) return false;
      if (h === undefined) result = undefined;
    }
    return result;
  }
  if ('testType' in c) return testType === c.testType;
  if ('present' in c) return memberProp(spec, c.present) !== undefined;
  if ('absent' in c) return memberProp(spec, c.absent) === undefined;
  if ('truthy' in c) {
    const v = valueOf(spec, c.truthy, opts);
    if (v === null) return false;
    if (v === undefined) return undefined;
    return pyTruthy(v.value);
  }
  if ('notIn' in c) {
    const v = valueOf(spec, c.notIn, opts);
    if (v === undefined) return undefined;
    let actual: unknown = v === null ? c.default : v.value;
    if (v === null && !('default' in c)) return false;
    if (c.scheme && typeof actual === 'string') actual = urlScheme(actual) ?? '';
    return !c.values.some((x) => x === actual);
  }
  if ('in' in c) {
    const v = valueOf(spec, c.in, opts);
    if (v === null) return false;
    if (v === undefined) return undefined;
    const actual = c.scheme && typeof v.value === 'string' ? (urlScheme(v.value) ?? '') : v.value;
    return c.values.some((x) => x === actual);
  }
  if ('durationTimes' in c) {
    const a = valueOf(spec, c.durationTimes, opts);
    const b = valueOf(spec, c.above, opts);
    if (a === null || b === null) return false;
    if (a === undefined || b === undefined) return undefined;
    const x = typeof a.value === 'string' ? isoSeconds(a.value) : undefined;
    const y = typeof b.value === 'string' ? isoSeconds(b.value) : undefined;
    return x === undefined || y === undefined ? undefined : c.factor * x > y;
  }
  if ('ipAddress' in c) {
    const v = valueOf(spec, c.ipAddress, opts);
    if (v === null || v === undefined) return v === undefined ? undefined : false;
    return typeof v.value === 'string' && (isIPv4(v.value) || isIPv6(v.value));
  }
  if ('fileUrlRefused' in c) {
    const v = valueOf(spec, c.fileUrlRefused, opts);
    if (v === null || v === undefined) return v === undefined ? undefined : false;
    return typeof v.value === 'string' ? fileUrlRefused(v.value, c.forbidden) : false;
  }
  if ('outside' in c) {
    const v = valueOf(spec, c.outside, opts);
    if (v === null || v === undefined || typeof v.value !== 'number') return v === undefined ? undefined : false;
    return (c.min !== undefined && v.value < c.min) || (c.max !== undefined && v.value > c.max);
  }
  const key = 'durationBelow' in c ? c.durationBelow : c.durationAbove;
  const v = valueOf(spec, key, opts);
  if (v === null || v === undefined || typeof v.value !== 'string') return v === undefined ? undefined : false;
  const seconds = isoSeconds(v.value);
  const limit = isoSeconds(c.limit);
  if (seconds === undefined || limit === undefined) return undefined;
  return 'durationBelow' in c ? seconds < limit : seconds > limit;
}

/**
 * curl's can-run on a file:// URL's path (pscheduler-tool-curl/curl/utilities.py file_ok): refused with a `.` or
 * `..` component, when the real path starts with a forbidden prefix (`/etc/`, `/var/`, `/dev/`, ...), or when it
 * is not a plain file. Without the agent's filesystem we judge only what holds on every Linux host: the path as
 * `realpath` makes it when nothing on the way is a symbolic link, and as directories the root, the forbidden
 * directories themselves and the empty path (`realpath('')` is the working directory). Anything else (a symbolic
 * link, a directory elsewhere, a path it may not read) is left to the host, never reported.
 */
export function fileUrlRefused(url: string, forbidden: readonly string[]): boolean {
  const split = urlSplit(url);
  if (split?.scheme !== 'file') return false;
  const path = split.path;
  if (path === '') return true;
  const parts = path.split('/');
  if (parts.some((p) => p === '.' || p === '..')) return true;
  if (!path.startsWith('/')) return false; // relative to the tool's working directory: unknown here
  const real = `/${parts.filter((p) => p !== '').join('/')}`;
  if (real === '/') return true;
  return forbidden.some((f) => real.startsWith(f) || real === f.replace(/\/$/, ''));
}

function pyTruthy(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === '') return false;
  if (typeof v === 'object' && v !== null && 'children' in v) return ((v as NodeLike).children?.length ?? 0) > 0;
  return true;
}

/**
 * Seconds of an ISO 8601 duration as pScheduler reads them (weeks, days, hours, minutes, seconds). isodate's `$`
 * is Python's: it also matches before a final newline, so `"PT30S\n"` is 30 seconds there too.
 */
export function isoSeconds(d: string): number | undefined {
  // A mesh repeats a handful of duration strings on every one of its tasks (39,800 in the 200-address bench, three
  // or four durations each): the regular expression is most of the schedule model's time without this cache.
  if (secondsCache.has(d)) return secondsCache.get(d);
  const seconds = parseIsoSeconds(d);
  if (secondsCache.size >= SECONDS_CACHE_MAX) secondsCache.clear(); // bounded: hostile input has endless strings
  secondsCache.set(d, seconds);
  return seconds;
}
const SECONDS_CACHE_MAX = 1024;
const secondsCache = new Map<string, number | undefined>();

function parseIsoSeconds(d: string): number | undefined {
  if (d.endsWith('\n')) d = d.slice(0, -1);
  if (d === 'P') return undefined; // isodate refuses it (a bare `PT` is zero)
  const m =
    /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      d,
    );
  if (!m) return undefined;
  const [w, day, h, min, s] = m.slice(1).map((x) => (x ? Number(x) : 0));
  return (((w * 7 + day) * 24 + h) * 60 + min) * 60 + s;
}

/** Every tool that lists the test type, with its verdict; in pScheduler's default order (preference, high first). */
export function toolsForSpec(testType: string, spec: NodeLike, opts: ToolCheckOptions = {}): ToolVerdict[] {
  return toolsOf(testType).map((t) => toolVerdict(t, testType, spec, opts));
}

/** Does some tool run this spec? (Allocation-free when one does.) */
export function someToolCanRun(testType: string, spec: NodeLike, opts: ToolCheckOptions = {}): boolean {
  for (const t of toolsOf(testType)) if (canRunSpec(t, testType, spec, opts)) return true;
  return false;
}

/**
 * The tool pScheduler would run the test with (pschedulerapiserver/tasks.py pick_tool, on the lists each participant
 * answers from api_tools_for_test, DB/tool.sql: preference high first, then name): with the task's `tools`, the first
 * of them whose can-run accepts the spec; without, the most preferred that can. A name pScheduler 5.x does not ship
 * is offered by no participant, so it is never picked. Every participant is taken to have every shipped tool, so
 * their lists agree. undefined: no tool can (pScheduler refuses the task).
 */
export function pickTool(testType: string, spec: NodeLike, tools?: readonly string[]): string | undefined {
  if (!tools || tools.length === 0) {
    for (const t of toolsOf(testType)) if (canRunSpec(t, testType, spec, {})) return t.name;
    return undefined;
  }
  for (const name of tools) {
    const t = toolData(name);
    if (t && canRunSpec(t, testType, spec, {})) return t.name;
  }
  return undefined;
}

function toolsOf(testType: string): ToolData[] {
  let list = byType.get(testType);
  if (!list) {
    list = allTools()
      .filter((t) => t.tests.includes(testType))
      .sort((a, b) => b.preference - a.preference || a.name.localeCompare(b.name));
    byType.set(testType, list);
  }
  return list;
}
const byType = new Map<string, ToolData[]>();
