import type { Executor } from '../../db/database.js';
import type { OutageLog } from '../../db/outage-log.js';
import { IdCursor } from './cursor.js';
import { changesAfter, lastChangeId, type ChangeRow } from '../orders/service.js';

export type ChangeListener = (change: ChangeRow) => void;

export interface FeedOptions {
  /** How often the feed looks for new changes while anyone listens. */
  pollMs: number;
  /** How long an id seen out of order waits for the ids before it to commit. */
  gapWaitMs: number;
  /** Where a failed poll is told; the feed polls again on its next tick. */
  failures: Pick<OutageLog, 'failed' | 'succeeded'>;
}

const BATCH = 500;

/**
 * The order changes of the whole database, read by one poller per process while it has listeners. Polling
 * the history table works the same on PGlite and on any number of server processes sharing one PostgreSQL,
 * without a trigger or a NOTIFY on the order write path.
 */
export class OrderFeed {
  private readonly listeners = new Set<ChangeListener>();
  private cursor: IdCursor | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Executor,
    private readonly options: FeedOptions,
  ) {}

  /** Starts hearing changes committed from now on; returns the function that stops. */
  async subscribe(listener: ChangeListener): Promise<() => void> {
    if (!this.cursor) this.cursor = new IdCursor(await lastChangeId(this.db), this.options.gapWaitMs);
    this.listeners.add(listener);
    this.timer ??= setInterval(() => {
      this.running ??= this.poll().finally(() => {
        this.running = null;
      });
    }, this.options.pollMs);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  get size(): number {
    return this.listeners.size;
  }

  /** Stops polling; the next subscriber starts again from the newest change. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.cursor = null;
  }

  private async poll(): Promise<void> {
    const cursor = this.cursor;
    if (!cursor) return;
    try {
      for (;;) {
        const rows = await changesAfter(this.db, cursor.low, cursor.pending, BATCH);
        for (const row of rows) {
          if (cursor.add(row.id)) for (const listener of this.listeners) listener(row);
        }
        cursor.settle(Date.now());
        this.options.failures.succeeded();
        if (rows.length < BATCH || this.cursor !== cursor) return;
      }
    } catch (err) {
      this.options.failures.failed('order feed poll failed', err);
    }
  }
}
