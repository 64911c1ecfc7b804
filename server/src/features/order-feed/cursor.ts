/**
 * Which ids of an increasing sequence have been handed out. Ids are drawn when a row is inserted but become
 * visible when its transaction commits, so a reader can see id 12 before id 11: the cursor remembers the ids
 * it has seen past the first gap and waits for the gap to fill, up to `gapWaitMs` (after that the id is taken to
 * belong to a transaction that rolled back, or never will be read).
 */
export class IdCursor {
  /** Every id up to this one has been seen or given up on. */
  low: number;
  private readonly seen = new Set<number>();
  private gapSince: number | null = null;

  constructor(
    start: number,
    private readonly gapWaitMs: number,
  ) {
    this.low = start;
  }

  /** The ids seen past the low mark: a reader skips them. */
  get pending(): number[] {
    return [...this.seen];
  }

  /** Records an id; true when it is new (not seen before and past the low mark). */
  add(id: number): boolean {
    if (id <= this.low || this.seen.has(id)) return false;
    this.seen.add(id);
    return true;
  }

  /** Moves the low mark over every seen id, and over a gap that has been open longer than gapWaitMs. */
  settle(now: number): void {
    for (;;) {
      while (this.seen.delete(this.low + 1)) this.low += 1;
      if (this.seen.size === 0) {
        this.gapSince = null;
        return;
      }
      this.gapSince ??= now;
      if (now - this.gapSince < this.gapWaitMs) return;
      this.low += 1;
      this.gapSince = null;
    }
  }
}
