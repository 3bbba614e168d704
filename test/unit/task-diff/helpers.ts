// Helpers of the task-diff tests: expand two versions of a template with the engine and derive, independently of
// the diff, what each agent gains, loses and keeps (plain sets of `agent task a->b` keys).
import type { ExpandedCombination, ExpandTasksResult, TaskDiffResult } from '../../../common/protocol';
import { expandText } from '../../../server/src/template/expand/from-text';
import { commandLineScope, policyFor } from '../../../server/src/template/includes/scope';
import { compareTemplates } from '../../../server/src/template/task-diff';
import type { IncludePolicy } from '../../../server/src/template/includes/loader';

export const jqConfig = { path: process.env.JQ_PATH || '/usr/bin/jq' };

export type Obj = Record<string, unknown>;

export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

let policy: Promise<IncludePolicy> | undefined;
export function includes(): Promise<IncludePolicy> {
  return (policy ??= policyFor(commandLineScope(undefined, false)));
}

export async function expandObj(t: unknown, agentAddresses?: string[]): Promise<ExpandTasksResult> {
  return expandText({
    uri: 'test:',
    version: null,
    text: typeof t === 'string' ? t : JSON.stringify(t),
    includes: await includes(),
    agentAddresses,
    jq: jqConfig,
  });
}

export async function diffObjs(
  a: unknown,
  b: unknown,
  options: { agentAddresses?: string[]; diagnostics?: boolean } = {},
): Promise<TaskDiffResult> {
  const side = async (t: unknown, source: string) => ({
    text: typeof t === 'string' ? t : JSON.stringify(t, null, 2),
    source,
    uri: `test:${source}`,
    includes: await includes(),
  });
  return compareTemplates(await side(a, 'old'), await side(b, 'new'), { jq: jqConfig, ...options });
}

/** `agent|task|a->b` of a combination. */
export const keyOf = (c: Pick<ExpandedCombination, 'task' | 'addressValues' | 'agent'>): string =>
  `${c.agent}|${c.task}|${c.addressValues.join('->')}`;

/** The keys of the combinations that create a task (no error, not refused, not identical to an earlier one). */
export function taskKeys(r: ExpandTasksResult): string[] {
  return r.combinations.filter((c) => c.error === undefined && c.pscheduler && !c.identicalTo).map(keyOf);
}

/** The diff's entries of one kind as the same keys. */
export function diffKeys(d: TaskDiffResult, kind: 'added' | 'removed' | 'changed'): string[] {
  return d.agents.flatMap((a) => a[kind].map((e) => `${a.agent}|${e.task}|${e.addresses.join('->')}`));
}

export const minus = (a: string[], b: string[]): string[] => {
  const s = new Set(b);
  return a.filter((x) => !s.has(x));
};

export const sorted = (a: string[]): string[] => [...a].sort();
