import type { Database } from '../../db/database.js';
import { databaseUnavailable } from '../../db/errors.js';
import { OutageLog } from '../../db/outage-log.js';
import type { Metrics } from '../../http/metrics.js';
import type { Log } from '../../log.js';
import { ExpiryFailed, expireNextDue, msToNextExpiry } from './service.js';

/** What the expiry job uses of the process. */
export interface ExpiryDeps {
  db: Database;
  metrics: Metrics;
  log: Log;
}

export interface ExpiryOptions {
  /** The longest wait between two looks at the soonest deadline (at most 1 s: an order expires within 5 s). */
  pollMs?: number;
}

export interface OrderExpiry {
  /** Finishes the cancel in progress, then returns. */
  stop(): Promise<void>;
}

const POLL_MS = 1000;
/** Wakes a hair after a deadline rather than before it, when the wait is timed by the deadline itself. */
const DUE_MARGIN_MS = 20;
/**
 * How long an order whose cancel failed for a reason of its own (not the database being away) is passed over: the
 * soonest due order comes first, so without this one such order would hold back the expiry of all the others.
 */
const PASS_OVER_MS = 60_000;

/**
 * The payment window's job, run by every worker process: cancels the orders whose `expiresAt` has passed, then
 * sleeps until the next deadline, or a second at most, so an order created meanwhile with a short window is
 * still seen in time. When nothing is due a look is one index read. A failure (the database away) is logged and
 * the job tries again at its next look: it never ends the process.
 */
export function startExpiry(deps: ExpiryDeps, options: ExpiryOptions = {}): OrderExpiry {
  const pollMs = Math.min(POLL_MS, options.pollMs ?? POLL_MS);
  const failures = new OutageLog(deps.log, 'orders expire again');
  let running = true;
  let wakeUp: (() => void) | null = null;
  const passedOver = new Map<number, number>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    while (running) {
      let waitMs = pollMs;
      const now = Date.now();
      for (const [id, until] of passedOver) if (until <= now) passedOver.delete(id);
      try {
        const passOver = [...passedOver.keys()];
        while (running && (await expireNextDue(deps.db, passOver))) deps.metrics.ordersExpired.inc();
        const next = await msToNextExpiry(deps.db, passOver);
        failures.succeeded();
        if (next !== null) waitMs = Math.min(pollMs, next + DUE_MARGIN_MS);
      } catch (err) {
        const cause = err instanceof ExpiryFailed ? err.cause : err;
        if (err instanceof ExpiryFailed && !databaseUnavailable(cause)) {
          deps.log('error', 'an expired order could not be cancelled; passing over it for a minute', {
            orderId: err.orderId,
            err: cause,
          });
          passedOver.set(err.orderId, Date.now() + PASS_OVER_MS);
          continue;
        }
        if (running) failures.failed('order expiry failed', cause);
      }
      if (running) await sleep(waitMs);
    }
  };
  const done = loop();

  return {
    async stop() {
      running = false;
      wakeUp?.();
      await done;
    },
  };
}
