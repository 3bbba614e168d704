// Properties of the simulated runs of generated meshes (throughput, latency, rtt; random repeats, slips, sliprand,
// single-ended and flipped tasks), checked against the run log alone:
// - no two scheduled exclusive runs overlap on a host, and no normal run overlaps an exclusive one;
// - every scheduled run lies inside its window [wanted, wanted + duration + slip cut to repeat - duration);
// - every "No times available" non-starter had no stretch of its duration free on all its participants, in the
//   window it searched, among the runs posted before it (free time computed here independently: the union of the
//   runs it must avoid);
// - per task and day, scheduled + non-starters <= wanted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExpandedCombination } from '../../../common/protocol';
import { DEFAULT_ASSUMPTIONS } from '../../../server/src/template/schedule/assumptions';
import { SeededRandom } from '../../../server/src/template/schedule/random';
import { REASON_NO_TIMES, RUN_SCHEDULED } from '../../../server/src/template/schedule/run-log';
import { simulateSchedule } from '../../../server/src/template/schedule/simulate';
import type { ScheduleModel } from '../../../server/src/template/schedule/task-model';
import { combo, modelOf } from './helpers';

function generatedMesh(seed: number): ExpandedCombination[] {
  const rnd = new SeededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[rnd.below(xs.length)];
  const hosts = Array.from({ length: 3 + rnd.below(5) }, (_, i) => `h${i}.example.net`);
  const out: ExpandedCombination[] = [];
  for (const a of hosts)
    for (const b of hosts) {
      if (a === b) continue;
      const repeat = pick(['PT1M', 'PT2M', 'PT5M', 'PT10M', 'PT15M']);
      const schedule: Record<string, unknown> = { repeat };
      const slip = pick([undefined, 'PT30S', 'PT1M', 'PT5M', repeat]);
      if (slip) schedule.slip = slip;
      if (rnd.next() < 0.5) schedule.sliprand = true;
      const kind = rnd.next();
      if (kind < 0.6) {
        const spec: Record<string, unknown> = { source: a, dest: b, duration: pick(['PT5S', 'PT10S', 'PT20S']) };
        if (rnd.next() < 0.1) spec['single-ended'] = true;
        out.push(combo({ task: 'bw', spec, schedule }));
      } else if (kind < 0.8) {
        const spec: Record<string, unknown> = { source: a, dest: b, 'packet-count': pick([100, 300]) };
        if (rnd.next() < 0.3) spec.flip = true;
        out.push(combo({ task: 'owd', type: 'latency', spec, schedule }));
      } else out.push(combo({ task: 'rtt', type: 'rtt', spec: { source: a, dest: b }, schedule }));
    }
  return out;
}

/** A host's scheduled runs that can conflict, sorted by start: [start, end, task]. */
class HostRuns {
  readonly runs: [number, number, number][] = [];
  private longest = 0;

  add(start: number, end: number, task: number): void {
    let lo = 0;
    let hi = this.runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.runs[mid][0] <= start) lo = mid + 1;
      else hi = mid;
    }
    this.runs.splice(lo, 0, [start, end, task]);
    this.longest = Math.max(this.longest, end - start);
  }

  /** The runs overlapping [from, to). */
  overlapping(from: number, to: number): [number, number, number][] {
    let lo = 0;
    let hi = this.runs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.runs[mid][0] < from - this.longest) lo = mid + 1;
      else hi = mid;
    }
    const out: [number, number, number][] = [];
    for (let k = lo; k < this.runs.length && this.runs[k][0] < to; k++)
      if (this.runs[k][1] > from) out.push(this.runs[k]);
    return out;
  }
}

// pScheduler's rules, written here from pScheduler's code rather than taken from the model under test:
/** DB/scheduling_class.sql: the `anytime` classes, placed at any time and never in conflict with anything. */
const ANYTIME = new Set(['background', 'background-multi']);
/**
 * DB/schedule.sql api_proposed_times (~490-500) and run_has_conflicts (DB/run.sql:271): the (proposed, on the
 * timeline) class pairs that may not overlap on a host. Every other pair may.
 */
const CONFLICTING = new Set(['exclusive|exclusive', 'exclusive|normal', 'normal|exclusive']);
const conflicts = (proposed: string, onTimeline: string): boolean => CONFLICTING.has(`${proposed}|${onTimeline}`);
/**
 * SCHED run_post (~441-452): a repeating run may not slip into the next interval. Said as the window's length: the
 * run and its slip, but never past the next repeat's start, and never shorter than the run itself (the floor of
 * pscheduler#1412).
 */
function windowLength(duration: number, slip: number, repeat: number | undefined): number {
  return repeat === undefined ? duration + slip : Math.min(duration + slip, Math.max(duration, repeat));
}

/** Does some stretch of `duration` lie free of `busy` (sorted by start) inside [from, to)? */
function hasFreeStretch(busy: [number, number][], from: number, to: number, duration: number): boolean {
  let free = from;
  for (const [s, e] of busy) {
    if (e <= free) continue;
    if (s >= to) break;
    if (s - free >= duration) return true;
    free = Math.max(free, e);
  }
  return to - free >= duration;
}

function checkProperties(model: ScheduleModel, seed: number): { scheduled: number; nonstart: number } {
  const sim = simulateSchedule(model, { days: 1, seed });
  const log = sim.runs;
  const a = model.assumptions;
  const seen = new Set<number>();
  // Per host, the scheduled runs that can conflict, in posting order: [start, end, task].
  const perHost = model.hosts.map(() => new HostRuns());
  let scheduled = 0;
  let nonstart = 0;
  for (let r = 0; r < log.length; r++) {
    const i = log.task[r];
    const t = model.tasks[i];
    const first = !seen.has(i);
    seen.add(i);
    const from = first ? Math.max(log.wanted[r], log.tried[r] + (t.participants.length === 1 ? 5 : 10)) : log.wanted[r];
    const windowEnd = from + windowLength(t.durationSeconds, sim.slipSeconds[i], sim.repeatSeconds[i]);
    const hosts = [...new Set(t.participants)];
    if (log.state[r] === RUN_SCHEDULED) {
      scheduled++;
      assert.ok(log.start[r] >= from && log.end[r] <= windowEnd, `seed ${seed}: run ${r} outside its window`);
      if (ANYTIME.has(t.class)) continue;
      for (const h of hosts) {
        for (const [, , other] of perHost[h].overlapping(log.start[r], log.end[r]))
          assert.ok(
            !conflicts(t.class, model.tasks[other].class),
            `seed ${seed}: run ${r} (${t.class}) overlaps task ${other} on ${model.hosts[h]}`,
          );
        perHost[h].add(log.start[r], log.end[r], i);
      }
    } else {
      nonstart++;
      if (log.reason[r] !== REASON_NO_TIMES) continue;
      const now = log.tried[r];
      const rangeStart = Math.floor(Math.max(from, now + a.runStartMarginSeconds));
      const rangeEnd = Math.floor(Math.min(windowEnd, now + a.horizonSeconds));
      const busy = hosts
        .flatMap((h) =>
          perHost[h].overlapping(rangeStart, rangeEnd).filter(([, , o]) => conflicts(t.class, model.tasks[o].class)),
        )
        .map(([s, e]): [number, number] => [s, e])
        .sort((x, y) => x[0] - y[0]);
      assert.ok(
        !hasFreeStretch(busy, rangeStart, rangeEnd, t.durationSeconds),
        `seed ${seed}: non-starter ${r} of task ${i} had ${t.durationSeconds} s free in [${rangeStart}, ${rangeEnd})`,
      );
    }
  }
  for (let c = 0; c < sim.wanted.length; c++) assert.ok(sim.scheduled[c] + sim.nonstart[c] <= sim.wanted[c]);
  return { scheduled, nonstart };
}

test('generated meshes: no overlaps where pScheduler forbids them, runs inside their windows, non-starters had no common free time', () => {
  let scheduled = 0;
  let nonstart = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const model = modelOf(generatedMesh(seed));
    const r = checkProperties(model, seed);
    scheduled += r.scheduled;
    nonstart += r.nonstart;
  }
  // The generator makes busy meshes: both outcomes must be exercised for the properties to mean something.
  assert.ok(scheduled > 10_000 && nonstart > 1_000, `${scheduled} scheduled, ${nonstart} non-starters`);
});

test('the same properties with a short warm-up and horizon (runs tried close to their window, the horizon cutting it)', () => {
  for (let seed = 21; seed <= 24; seed++) {
    const model = modelOf(generatedMesh(seed), { horizonSeconds: 3600, warmupSeconds: 3600 });
    checkProperties(model, seed);
  }
  assert.equal(DEFAULT_ASSUMPTIONS.horizonSeconds, 86_400);
});
