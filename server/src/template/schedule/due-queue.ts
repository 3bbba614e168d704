// The scheduler's to-do list: each task's next run, ordered as schedule_runs_to_schedule hands them out (when the
// run becomes due, then its wanted time, then the task's age: ORDER BY trynext, added), as a binary heap of entry ids
// over key arrays the simulation owns.

export class DueQueue {
  private readonly heap: Int32Array;
  private size = 0;

  constructor(
    /** When each task's next run becomes due (seconds). */
    private readonly due: Float64Array,
    /** The grid point each task's next run is wanted at. */
    private readonly wanted: Float64Array,
    /** When each task was created, and a sequence number for tasks created at the same time (the slot). */
    private readonly added: Float64Array,
    private readonly seq: Int32Array,
  ) {
    this.heap = new Int32Array(due.length);
  }

  get length(): number {
    return this.size;
  }

  /** The entry pop() would return (the queue must not be empty). */
  peek(): number {
    return this.heap[0];
  }

  push(i: number): void {
    const h = this.heap;
    let k = this.size++;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!this.before(i, h[parent])) break;
      h[k] = h[parent];
      k = parent;
    }
    h[k] = i;
  }

  pop(): number {
    const h = this.heap;
    const top = h[0];
    const last = h[--this.size];
    let k = 0;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.before(h[child + 1], h[child])) child++;
      if (!this.before(h[child], last)) break;
      h[k] = h[child];
      k = child;
    }
    h[k] = last;
    return top;
  }

  private before(x: number, y: number): boolean {
    const dx = this.due[x];
    const dy = this.due[y];
    if (dx !== dy) return dx < dy;
    const wx = this.wanted[x];
    const wy = this.wanted[y];
    if (wx !== wy) return wx < wy;
    const ax = this.added[x];
    const ay = this.added[y];
    return ax !== ay ? ax < ay : this.seq[x] < this.seq[y];
  }
}
