// Which tool can run a test spec: the tool's enumerate (test types) and what its can-run program checks
// (pscheduler-tool-<name>/can-run), as recorded in schemas/pscheduler/tool-*.json. pScheduler picks, among the
// tools every participant offers, the first of the task's `tools` (or the most preferred) whose can-run says yes;
// when none can, the task is refused ("None of the participants could run this test").
import type { JsonNode } from '../parse';
import { forEachMember, memberProp, memberValue } from './nodes';
import { allTools, type ToolCondition, type ToolData } from './catalog';
import { urlScheme } from './rules';
import type { Expansion } from './validate';

export interface ToolVerdict {
  tool: ToolData;
  canRun: boolean;
  reasons: string[];
}

export interface ToolCheckOptions {
  expansion?: (node: JsonNode, wantValues: boolean) => Expansion | undefined;
}

/** A spec value we can reason about: undefined when a template variable makes it unknowable. */
type Known = { value: unknown; node: JsonNode } | undefined;

function known(node: JsonNode, opts: ToolCheckOptions): Known {
  if (node.type === 'string' && (node.value as string).includes('{%') && opts.expansion) {
    const e = opts.expansion(node, true);
    if (e && (e.kind !== 'string' || !e.values || e.values.length !== 1)) return undefined;
    if (e?.kind === 'string' && e.values) return { value: e.values[0].value, node };
  }
  if (node.type === 'object' || node.type === 'array') return { value: node, node };
  return { value: node.value, node };
}

function isTemplated(node: JsonNode, opts: ToolCheckOptions): boolean {
  return node.type === 'string' && (node.value as string).includes('{%') && !!opts.expansion;
}

/** The tool's can-run for this test type and spec (an object node). */
export function toolVerdict(
  tool: ToolData,
  testType: string,
  spec: JsonNode,
  opts: ToolCheckOptions = {},
): ToolVerdict {
  const reasons: string[] = [];
  if (!tool.tests.includes(testType)) {
    reasons.push(tool.tests.length ? `runs only ${tool.tests.join(', ')} tests` : 'runs no test in pScheduler 5.x');
    return { tool, canRun: false, reasons };
  }
  const schemaNode = memberValue(spec, 'schema');
  if (tool.maxSchema !== null && schemaNode && !isTemplated(schemaNode, opts)) {
    // json_check_schema: a Python int (bools included) no higher than the tool's maximum
    const v = schemaNode.value;
    const int = (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean';
    if (!int) reasons.push(`needs an integer \`schema\` (json_check_schema)`);
    else if (Number(v) > tool.maxSchema)
      reasons.push(`accepts ${testType} specs up to schema ${tool.maxSchema}, not ${String(v)}`);
  }
  if (tool.supportedOptions) {
    const unsupported: string[] = [];
    forEachMember(spec, (k) => {
      if (!tool.supportedOptions!.includes(k)) unsupported.push(k);
    });
    if (unsupported.length) reasons.push(`does not take ${unsupported.map((k) => `\`${k}\``).join(', ')}`);
  }
  for (const r of tool.rules ?? []) if (holds(r.when, testType, spec, opts) === true) reasons.push(r.reason);
  return { tool, canRun: reasons.length === 0, reasons };
}

/** true / false, or undefined when a template variable hides the answer. */
function holds(c: ToolCondition, testType: string, spec: JsonNode, opts: ToolCheckOptions): boolean | undefined {
  const value = (key: string): Known | null => {
    const p = memberValue(spec, key);
    return p ? known(p, opts) : null;
  };
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
    const v = value(c.truthy);
    if (v === null) return false;
    if (v === undefined) return undefined;
    return pyTruthy(v.value);
  }
  if ('notIn' in c) {
    const v = value(c.notIn);
    if (v === undefined) return undefined;
    let actual: unknown = v === null ? c.default : v.value;
    if (v === null && !('default' in c)) return false;
    if (c.scheme && typeof actual === 'string') actual = urlScheme(actual) ?? '';
    return !c.values.some((x) => x === actual);
  }
  if ('outside' in c) {
    const v = value(c.outside);
    if (v === null || v === undefined || typeof v.value !== 'number') return v === undefined ? undefined : false;
    return (c.min !== undefined && v.value < c.min) || (c.max !== undefined && v.value > c.max);
  }
  const key = 'durationBelow' in c ? c.durationBelow : c.durationAbove;
  const v = value(key);
  if (v === null || v === undefined || typeof v.value !== 'string') return v === undefined ? undefined : false;
  const seconds = isoSeconds(v.value);
  const limit = isoSeconds(c.limit);
  if (seconds === undefined || limit === undefined) return undefined;
  return 'durationBelow' in c ? seconds < limit : seconds > limit;
}

function pyTruthy(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === '') return false;
  if (typeof v === 'object' && v !== null && 'children' in v) return ((v as JsonNode).children?.length ?? 0) > 0;
  return true;
}

/** Seconds of an ISO 8601 duration as pScheduler reads them (weeks, days, hours, minutes, seconds). */
export function isoSeconds(d: string): number | undefined {
  const m =
    /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      d,
    );
  if (!m) return undefined;
  const [w, day, h, min, s] = m.slice(1).map((x) => (x ? Number(x) : 0));
  return (((w * 7 + day) * 24 + h) * 60 + min) * 60 + s;
}

/** Every tool that lists the test type, with its verdict; in pScheduler's default order (preference, high first). */
export function toolsForSpec(testType: string, spec: JsonNode, opts: ToolCheckOptions = {}): ToolVerdict[] {
  let list = byType.get(testType);
  if (!list) {
    list = allTools()
      .filter((t) => t.tests.includes(testType))
      .sort((a, b) => b.preference - a.preference || a.name.localeCompare(b.name));
    byType.set(testType, list);
  }
  return list.map((t) => toolVerdict(t, testType, spec, opts));
}
const byType = new Map<string, ToolData[]>();
