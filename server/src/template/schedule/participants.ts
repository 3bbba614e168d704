// Which hosts' schedules a task occupies, and how its scheduling class meets others on a timeline.
//
// Class: each test plug-in's enumerate names it (`"scheduling-class"`), DB/test.sql:109 stores it on the test as it
// is, so it depends on the test type only (our data: schemas/pscheduler/test-*.json `schedulingClass`).
// Participants: each test's `participants` program (pscheduler-test-<T>/<T>/participants); only those hosts'
// timelines are asked for free time and written (SCHED fetch_proposals, run_post).
import { plugin, type SchedulingClass } from '../pscheduler/catalog';

export type { SchedulingClass } from '../pscheduler/catalog';

/** The class of a test type; undefined for a type pScheduler 5.x does not have. */
export function schedulingClassOf(testType: string): SchedulingClass | undefined {
  return plugin('test', testType)?.schedulingClass;
}

/**
 * DB/scheduling_class.sql `anytime`: background and background-multi runs are placed at any time and never conflict
 * with anything, in either direction (DB/run.sql run_conflictable, run_has_conflicts; DB/schedule.sql
 * api_proposed_times).
 */
export function isAnytime(c: SchedulingClass): boolean {
  return c === 'background' || c === 'background-multi';
}

/**
 * Does a run of class `proposed` have to avoid a run of class `onTimeline`? The truth table of DB/schedule.sql
 * api_proposed_times (~490-500), also run_has_conflicts in DB/run.sql:271: exclusive avoids exclusive and normal,
 * normal avoids exclusive, background avoids nothing and is avoided by nothing.
 */
export function mustAvoid(proposed: SchedulingClass, onTimeline: SchedulingClass): boolean {
  if (isAnytime(proposed) || isAnytime(onTimeline)) return false;
  return proposed === 'exclusive' || onTimeline === 'exclusive';
}

/** How a test's participants program picks hosts. */
type ParticipantRule =
  /** throughput: [source, dest], or [source] when `single-ended` or `loopback` is present (whatever its value). */
  | 'source-dest-unless-single'
  /** simplestream: [source, dest]. */
  | 'source-dest'
  /** latency, latencybg: [dest] when `flip` is truthy, else [source]. */
  | 'flip-dest-else-source'
  /** rtt, trace, clock, mtu, psresponse: [source]. */
  | 'source'
  /** the rest: [host] (`host-node` first); idle schema 2 takes a list of hosts. */
  | 'host';

/** pscheduler-test-<T>/<T>/participants, read for every test type of pScheduler 5.x. */
const RULES: Record<string, ParticipantRule> = {
  throughput: 'source-dest-unless-single',
  simplestream: 'source-dest',
  latency: 'flip-dest-else-source',
  latencybg: 'flip-dest-else-source',
  rtt: 'source',
  trace: 'source',
  clock: 'source',
  mtu: 'source',
  psresponse: 'source',
};

/** `source-node` if present, else `source` (the same for dest and host): json.get('x-node', json.get('x', None)). */
function nodeOr(spec: Record<string, unknown>, key: 'source' | 'dest' | 'host'): unknown {
  const node = spec[`${key}-node`];
  return node !== undefined ? node : spec[key];
}

/** Python's truthiness of a JSON value. */
export function pyTruthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/**
 * The participants of a test, in order (index 0 is the lead). A missing source (or host) is null in pScheduler
 * ("null-reason": the task is run by the host it is posted to); `self` stands for that host, the agent.
 * disk-to-disk reads `host` only (no `host-node`).
 */
export function participantsOf(testType: string, spec: Record<string, unknown>, self: string): string[] {
  const rule = RULES[testType] ?? 'host';
  const name = (v: unknown): string => (typeof v === 'string' && v !== '' ? v : self);
  switch (rule) {
    case 'source-dest-unless-single': {
      const out = [name(nodeOr(spec, 'source'))];
      if (!('single-ended' in spec) && !('loopback' in spec)) out.push(name(nodeOr(spec, 'dest')));
      return out;
    }
    case 'source-dest':
      return [name(nodeOr(spec, 'source')), name(nodeOr(spec, 'dest'))];
    case 'flip-dest-else-source':
      return [name(pyTruthy(spec.flip) ? nodeOr(spec, 'dest') : nodeOr(spec, 'source'))];
    case 'source':
      return [name(nodeOr(spec, 'source'))];
    case 'host': {
      const host = testType === 'disk-to-disk' ? spec.host : nodeOr(spec, 'host');
      // idle schema 2: `host` is a list, each entry a participant.
      if (Array.isArray(host)) return host.length ? host.map(name) : [self];
      return [name(host)];
    }
  }
}
