// The simulation's random numbers: a small seeded generator (mulberry32), so a seed gives the same schedule on every
// machine. Used where pScheduler calls Python's `random` for `sliprand` (SCHED run_post ~507-530).

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Python's random.randrange(0, n): an integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
}
