// Small builders for the schedule tests: expanded combinations as the expansion engine hands them over, without
// running it (the engine has its own tests; these exercise the schedule model on exactly the task JSON given).
import type { ExpandedCombination, PSchedulerTask } from '../../../common/protocol';
import { DEFAULT_ASSUMPTIONS, type ScheduleAssumptions } from '../../../server/src/template/schedule/assumptions';
import { buildScheduleModel, type ScheduleModel } from '../../../server/src/template/schedule/task-model';

export interface ComboInput {
  task?: string;
  type?: string;
  spec: Record<string, unknown>;
  schedule?: Record<string, unknown>;
  tools?: string[];
  agent?: string;
}

/** One combination: task `task` of test `type` (default throughput), scheduled by `agent` (default the source). */
export function combo(c: ComboInput): ExpandedCombination {
  const source = typeof c.spec.source === 'string' ? c.spec.source : 'agent.example.net';
  const test = { type: c.type ?? 'throughput', spec: c.spec };
  const pscheduler: PSchedulerTask = { test, archives: [], schedule: c.schedule ?? {} };
  if (c.tools) pscheduler.tools = c.tools;
  const addressValues = [source, ...(typeof c.spec.dest === 'string' ? [c.spec.dest] : [])];
  return {
    task: c.task ?? 't',
    addresses: addressValues.map((a) => a.split('.')[0]),
    addressValues,
    agent: c.agent ?? source,
    pscheduler,
  };
}

/** A full mesh of throughput tasks between `hosts` (every ordered pair), in pSConfig's order. */
export function throughputMesh(
  hosts: string[],
  schedule: Record<string, unknown>,
  spec: Record<string, unknown> = {},
  task = 'mesh',
): ExpandedCombination[] {
  const out: ExpandedCombination[] = [];
  for (const a of hosts)
    for (const b of hosts) if (a !== b) out.push(combo({ task, spec: { source: a, dest: b, ...spec }, schedule }));
  return out;
}

/**
 * pScheduler alone, as the hand-worked cases assume it: every task created at 0 at once, none renewed, and pending
 * runs seen by proposals (no NULL-priority defect). The agent's part and the defect have tests of their own.
 */
export const PSCHEDULER_ALONE: Partial<ScheduleAssumptions> = Object.freeze({
  agentRenewal: false,
  agentsInStep: true,
  postSeconds: 0,
  nullPriorityDefect: false,
});

export function modelOf(combos: ExpandedCombination[], changes: Partial<ScheduleAssumptions> = {}): ScheduleModel {
  return buildScheduleModel(combos, { ...DEFAULT_ASSUMPTIONS, ...changes });
}
