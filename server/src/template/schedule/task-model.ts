// The schedule model of an expansion: for every task an agent would create (a combination the expansion built and
// pScheduler would accept), what pScheduler's scheduler needs: the tool it picks, the run duration it stores, the
// scheduling class, the participants whose timelines the runs occupy, and the schedule's repeat and slip. Per host,
// the load those tasks put on it.
import type { ExpandedCombination } from '../../../../common/protocol';
import { isoSeconds, pickTool } from '../pscheduler/tools';
import { valueNode } from '../pscheduler/value-nodes';
import { DEFAULT_ASSUMPTIONS, type ScheduleAssumptions } from './assumptions';
import { toolDuration, toolkitRewrite } from './durations';
import { participantsOf, pyTruthy, schedulingClassOf, type SchedulingClass } from './participants';
import { isObject } from '../../../../common/json';

export interface ScheduleTask {
  /** Position in the model (the agents' creation order, SIMPLIFICATIONS 'creation'). */
  index: number;
  /** The template's task name. */
  task: string;
  /** Names of the address objects of the combination (as `psconfig-tools expand` prints them). */
  addresses: string[];
  /** The agent that creates the task. */
  agent: string;
  testType: string;
  /** The spec as the lead stores it (after the toolkit rewrite, when assumed). */
  spec: Record<string, unknown>;
  /** The tool pScheduler would pick; undefined when none can run the spec. */
  tool: string | undefined;
  /** Whole seconds of every run, as pScheduler stores them. */
  durationSeconds: number;
  /** False when the tool's duration program is not modelled (an estimate, SIMPLIFICATIONS 'durations'). */
  durationModelled: boolean;
  class: SchedulingClass;
  /** Host ids (into ScheduleModel.hosts), the lead first. */
  participants: number[];
  /** Seconds between runs; undefined: one run only. */
  repeatSeconds: number | undefined;
  /** The schedule's slip in seconds (0 when absent: pScheduler's default, DB/task.sql ~553). */
  slipSeconds: number;
  sliprand: boolean;
  /** Schedule fields the model leaves out (start, until, max-runs), when the schedule has them. */
  unmodelledFields: string[];
}

/** One host's row of the schedule model's loads: what the template's tasks ask of its time, per class. */
export interface ScheduleHostLoad {
  /** The string the host is known by in the tasks' participants. */
  address: string;
  /** Sum of duration / repeat over the exclusive tasks the host takes part in. */
  exclusiveLoad: number;
  /** The same over normal tasks (latency): they block exclusive runs on this host. */
  normalLoad: number;
  /** Tasks the host takes part in (every class). */
  tasks: number;
}

export interface ScheduleModel {
  tasks: ScheduleTask[];
  /** Host addresses by id. */
  hosts: string[];
  /** Combinations left out: failed to expand, refused by pScheduler, or a test type pScheduler does not have. */
  skipped: number;
  /** Combinations left out as identical to an earlier task of their agent: pSConfig creates that task once
   *  (task_manager.py _need_new_task; expand/identical-tasks.ts marks them). */
  identical: number;
  assumptions: ScheduleAssumptions;
}

/** Build the model from the expansion's combinations, in their order (pSConfig's). */
export function buildScheduleModel(
  combinations: readonly ExpandedCombination[],
  assumptions: ScheduleAssumptions = DEFAULT_ASSUMPTIONS,
): ScheduleModel {
  const hostIds = new Map<string, number>();
  const hosts: string[] = [];
  const hostId = (address: string): number => {
    let id = hostIds.get(address);
    if (id === undefined) {
      id = hosts.length;
      hosts.push(address);
      hostIds.set(address, id);
    }
    return id;
  };
  const tasks: ScheduleTask[] = [];
  let skipped = 0;
  let identical = 0;
  for (const c of combinations) {
    if (c.identicalTo && !c.error) {
      identical++;
      continue;
    }
    const t = c.pscheduler;
    const cls = t && typeof t.test?.type === 'string' ? schedulingClassOf(t.test.type) : undefined;
    if (!t || c.error || c.refused || !cls || !isObject(t.test.spec)) {
      skipped++;
      continue;
    }
    const testType = t.test.type;
    const agent = c.agent ?? c.addressValues[0] ?? '';
    const spec = assumptions.toolkitLimitsRewrite ? toolkitRewrite(testType, t.test.spec) : t.test.spec;
    const tools = Array.isArray(t.tools) ? t.tools.filter((x): x is string => typeof x === 'string') : undefined;
    const tool = pickTool(testType, valueNode(spec), tools);
    const duration = toolDuration(tool, spec);
    const schedule = isObject(t.schedule) ? t.schedule : {};
    tasks.push({
      index: tasks.length,
      task: c.task,
      addresses: c.addresses,
      agent,
      testType,
      spec,
      tool,
      durationSeconds: duration.seconds,
      durationModelled: duration.modelled,
      class: cls,
      participants: participantsOf(testType, spec, agent).map(hostId),
      repeatSeconds: positiveSeconds(schedule.repeat),
      slipSeconds: positiveSeconds(schedule.slip) ?? 0,
      sliprand: pyTruthy(schedule.sliprand),
      unmodelledFields: ['start', 'until', 'max-runs'].filter((k) => schedule[k] !== undefined),
    });
  }
  return { tasks, hosts, skipped, identical, assumptions };
}

/** Per host: exclusive and normal load, tasks (hosts in id order). */
export function hostLoads(model: ScheduleModel): ScheduleHostLoad[] {
  const out: ScheduleHostLoad[] = model.hosts.map((address) => ({
    address,
    exclusiveLoad: 0,
    normalLoad: 0,
    tasks: 0,
  }));
  for (const t of model.tasks) {
    const share = t.repeatSeconds ? t.durationSeconds / t.repeatSeconds : 0;
    // Each host once (a Set per task cost more than the loads: a mesh has tens of thousands of tasks).
    const p = t.participants;
    for (let k = 0; k < p.length; k++) {
      if (p.indexOf(p[k]) !== k) continue;
      const row = out[p[k]];
      row.tasks++;
      if (t.class === 'exclusive') row.exclusiveLoad += share;
      else if (t.class === 'normal') row.normalLoad += share;
    }
  }
  return out;
}

function positiveSeconds(v: unknown): number | undefined {
  const s = typeof v === 'string' ? isoSeconds(v) : undefined;
  return s !== undefined && s > 0 ? s : undefined;
}
