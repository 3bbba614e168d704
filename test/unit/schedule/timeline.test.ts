// The proposal intersection (SCHED fetch_proposals / find_overlaps over each participant's DB/schedule.sql
// api_proposed_times): the simulation's two-host shortcut (commonFreeTime) against the general path it stands in for
// (each host's proposals, then their common parts at least the run long), on generated timelines; and the general
// path on a case worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../../server/src/template/schedule/random';
import {
  commonFreeTime,
  HostTimeline,
  intersectRanges,
  proposedTimes,
  RangeList,
  type ProposalQuery,
} from '../../../server/src/template/schedule/timeline';

function ranges(r: RangeList): [number, number][] {
  return Array.from({ length: r.length }, (_, k) => [r.lowers[k], r.uppers[k]]);
}

function query(rangeStart: number, rangeEnd: number, duration: number): ProposalQuery {
  return { rangeStart, rangeEnd, horizonEnd: rangeEnd + 100, duration, exclusive: true, onlyRunningAt: NaN };
}

/** The general path: each host's api_proposed_times, then find_overlaps and the length filter. */
function general(a: HostTimeline, b: HostTimeline, q: ProposalQuery): [number, number][] {
  const pa = new RangeList();
  const pb = new RangeList();
  const out = new RangeList();
  proposedTimes(a, q, pa);
  proposedTimes(b, q, pb);
  intersectRanges(pa, pb, q.duration, out);
  return ranges(out);
}

test('two hosts worked out by hand: the gaps of each, and only common parts at least the run long (SCHED find_overlaps, `length() >= task_duration`)', () => {
  // a busy [10, 30) and [50, 60); b busy [25, 45). Window [0, 100), a 19 s run.
  // a's proposals: [0, 10) is 10 s, too short; [30, 50) 20 s; [60, 100) 40 s.
  // b's proposals: [0, 25) 25 s; [45, 100) 55 s.
  // Common: [30, 50) ∩ [0, 25) empty; [30, 50) ∩ [45, 100) = [45, 50), 5 s, dropped; [60, 100) ∩ [45, 100) = [60, 100).
  const a = new HostTimeline();
  a.exclusive.insert(10, 30, 0);
  a.exclusive.insert(50, 60, 1);
  const b = new HostTimeline();
  b.exclusive.insert(25, 45, 2);
  const q = query(0, 100, 19);
  const pa = new RangeList();
  proposedTimes(a, q, pa);
  assert.deepEqual(ranges(pa), [
    [30, 50],
    [60, 100],
  ]);
  assert.deepEqual(general(a, b, q), [[60, 100]]);
  const fast = new RangeList();
  commonFreeTime(a.exclusive, b.exclusive, q, fast);
  assert.deepEqual(ranges(fast), [[60, 100]]);
  // Back to back is no conflict: intervals are half-open, so b's run ending at 60 leaves [60, 79) free.
  b.exclusive.insert(45, 60, 3);
  assert.deepEqual(general(a, b, q), [[60, 100]]);
});

test('the two-host shortcut finds exactly what the proposals of each host and their intersection find, on generated exclusive timelines', () => {
  const rnd = new SeededRandom(19);
  let nonEmpty = 0;
  for (let round = 0; round < 2000; round++) {
    const hosts = [new HostTimeline(), new HostTimeline()];
    for (const h of hosts) {
      // Exclusive runs never overlap on a host: lay them end to end with random gaps (some zero: back to back).
      let t = rnd.below(40);
      const n = rnd.below(12);
      for (let k = 0; k < n; k++) {
        const length = 1 + rnd.below(40);
        h.exclusive.insert(t, t + length, k);
        t += length + (rnd.next() < 0.2 ? 0 : rnd.below(50));
      }
    }
    const from = rnd.below(200);
    const q = query(from, from + 1 + rnd.below(400), 1 + rnd.below(40));
    const expected = general(hosts[0], hosts[1], q);
    const fast = new RangeList();
    commonFreeTime(hosts[0].exclusive, hosts[1].exclusive, q, fast);
    assert.deepEqual(ranges(fast), expected, `round ${round}: ${JSON.stringify(q)}`);
    if (expected.length) nonEmpty++;
  }
  assert.ok(nonEmpty > 200 && nonEmpty < 1900, `both outcomes exercised: ${nonEmpty} of 2000 with common time`);
});
