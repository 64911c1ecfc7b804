import { databaseUnavailable } from '../../db/errors.js';
import type { Log } from '../../log.js';

/**
 * A worker's failures, logged without a flood while the database is away (the worker retries every poll, twice a
 * second): an outage is one warning when it starts and one line when a statement succeeds again. Any other failure
 * is an error, each time, for it means a fault to fix.
 */
export class FailureLog {
  private down = false;

  constructor(private readonly log: Log) {}

  failed(what: string, err: unknown): void {
    if (!databaseUnavailable(err)) return this.log('error', what, { err });
    if (this.down) return;
    this.down = true;
    this.log('warn', `${what}: the database is unavailable; trying again until it is back`, { err: (err as Error).message });
  }

  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.log('info', 'the database is available again; webhook delivery goes on');
  }
}
