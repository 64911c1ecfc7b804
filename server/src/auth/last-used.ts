/** Writes a batch of last-use times, by key id (api-keys' repository, wired in context.ts). */
export type LastUsedWriter = (uses: ReadonlyMap<string, Date>) => Promise<void>;

/**
 * Keeps api_keys.last_used_at fresh without a write per request: uses are collected in memory and written
 * in one batch statement every `flushMs` (and at shutdown). A use is kept as a number and made a Date only when
 * written, so that a request leaves no Date behind for the collector.
 */
export class LastUsedTracker {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: LastUsedWriter,
    flushMs: number,
    private readonly onError: (err: unknown) => void,
  ) {
    this.timer = setInterval(() => {
      void this.flush();
    }, flushMs);
    this.timer.unref();
  }

  touch(keyId: string, at = Date.now()): void {
    this.pending.set(keyId, at);
  }

  flush(): Promise<void> {
    if (this.pending.size === 0) return this.flushing;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing
      .then(() => this.write(new Map([...batch].map(([id, at]) => [id, new Date(at)]))))
      .catch((err) => {
        for (const [id, at] of batch) if (!this.pending.has(id)) this.pending.set(id, at);
        this.onError(err);
      });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
