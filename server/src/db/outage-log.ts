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
  constructor(private readonly log: Log, private readonly resumes: string) {}

  failed(what: string, err: unknown): void {
    if (!databaseUnavailable(err)) return this.log('error', what, { err });
    if (this.down) return;
    this.down = true;
    this.log('warn', `${what}: the database is unavailable; trying again until it is back`, { err: (err as Error).message });
  }

  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.log('info', `the database is available again; ${this.resumes}`);
  }
}
