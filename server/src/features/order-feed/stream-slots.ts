/**
 * How many streams each staff user has open on this instance, up to a limit. A slot is taken before the stream
 * opens (the opening awaits, so counting only the open streams would let a burst of requests past the limit) and
 * given back once, when the stream ends or fails to open.
 */
export class StreamSlots {
  private readonly counts = new Map<number, number>();

  constructor(readonly max: number) {}

  /** Takes one of the user's slots: the function that gives it back (a second call does nothing), or null when all are taken. */
  take(staffUserId: number): (() => void) | null {
    const taken = this.counts.get(staffUserId) ?? 0;
    if (taken >= this.max) return null;
    this.counts.set(staffUserId, taken + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = this.counts.get(staffUserId)! - 1;
      if (left === 0) this.counts.delete(staffUserId);
      else this.counts.set(staffUserId, left);
    };
  }
}
