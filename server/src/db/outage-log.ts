import type { Log } from '../log.js';
import { databaseUnavailable } from './errors.js';

/**
 * The failures of a loop that retries on its own (the webhook worker, the order feed), logged without a flood while
 * the database is away: an outage is one warning when it starts and one line when a statement succeeds again. Any
 * other failure is an error, each time, for it means a fault to fix.
 */
export class OutageLog {
  private down = false;

  /** `resumes`: what goes on again, said when the database is back ("webhook delivery goes on"). */
  constructor(
    private readonly log: Log,
    private readonly resumes: string,
  ) {}

  failed(what: string, err: unknown): void {
    if (!databaseUnavailable(err)) return this.log('error', what, { err });
    if (this.down) return;
    this.down = true;
    this.log('warn', `${what}: the database is unavailable; trying again until it is back`, {
      err: (err as Error).message,
    });
  }

  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.log('info', `the database is available again; ${this.resumes}`);
  }
}

/**
 * Failures that come many at once during one outage (requests answered 503, pooled connections lost): one warning
 * when the first comes and, when a statement succeeds again, one line with how many came and for how long (none
 * without `ended`). The caller may still log each at debug.
 */
export class OutageCount {
  private since: number | null = null;
  private count = 0;

  /** `counted`: the field of the end line that holds the count ("refused"). */
  constructor(
    private readonly log: Log,
    private readonly messages: { started: string; ended?: string; counted: string },
  ) {}

  failed(detail: object): void {
    this.count += 1;
    if (this.since !== null) return;
    this.since = Date.now();
    this.log('warn', this.messages.started, detail);
  }

  /** Called after every statement that succeeds: a comparison while nothing is down. */
  succeeded(): void {
    if (this.since === null) return;
    const extra = { [this.messages.counted]: this.count, outageMs: Date.now() - this.since };
    this.since = null;
    this.count = 0;
    if (this.messages.ended) this.log('info', this.messages.ended, extra);
  }
}
