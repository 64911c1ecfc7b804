import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../config/config.js';
import type { Database } from '../../db/database.js';
import { OutageLog } from '../../db/outage-log.js';
import type { Metrics } from '../../http/metrics.js';
import type { Log } from '../../log.js';
import { attempt } from './attempt.js';
import type { Claim } from './claim.js';
import { listenForDeliveries } from './listen.js';
import type { Outcome, RecordSettings } from './outcome.js';
import { onEnqueued } from './outbox.js';
import { claimDue } from './repository.js';
import { recordBatch } from './recording.js';
import { Sender } from './sender.js';
import { sweepAndMeasure } from './sweep.js';

/** What a worker uses of the process. */
export interface WorkerDeps {
  db: Database;
  metrics: Metrics;
  log: Log;
  config: Pick<Config, 'webhooks'>;
}

export interface WorkerOptions {
  id?: string;
  /** Overrides of the configured webhook settings (tests and the benchmark). */
  settings?: Partial<Config['webhooks']>;
  /** Postgres URL to LISTEN on for deliveries other processes commit; none when absent. */
  listenUrl?: string | null;
  /** Other pruning run with each sweep (expired idempotency keys, unused quotes): the composition root's. */
  alsoPrune?: readonly ((db: Database) => Promise<number>)[];
}

export interface WebhookWorker {
  readonly id: string;
  /** Look for due deliveries now rather than at the next poll. */
  wake(): void;
  /** Stops claiming, lets the attempts in flight finish and be recorded, then returns. */
  stop(): Promise<void>;
}

export function startWorker(deps: WorkerDeps, options: WorkerOptions = {}): WebhookWorker {
  return new Worker(deps, options);
}

/** Lets a wait end early: the margin keeps a wake-up at a retry's due time from landing a hair before it. */
const DUE_MARGIN_MS = 10;
const FLUSH_BATCH = 500;

class Worker implements WebhookWorker {
  readonly id: string;
  private readonly s: Config['webhooks'];
  private readonly leaseMs: number;
  private readonly perWebhook: number;
  private readonly recording: RecordSettings;
  private readonly sender: Sender;
  private running = true;
  private active = 0;
  private readonly perHook = new Map<string, number>();
  private readonly finished: Outcome[] = [];
  private flushing: Promise<void> | null = null;
  private pokes = 0;
  private waiter: (() => void) | null = null;
  private drainedWaiters: (() => void)[] = [];
  private dues: number[] = [];
  private sweeping = false;
  private readonly failures: OutageLog;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly listener?: { close(): Promise<void> };
  private readonly loopDone: Promise<void>;
  private stopped?: Promise<void>;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly options: WorkerOptions,
  ) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.failures = new OutageLog(deps.log, 'webhook delivery goes on');
    this.s = { ...deps.config.webhooks, ...options.settings };
    // A lease must outlast the attempt it covers, or a slow receiver would get the attempt twice.
    this.leaseMs = Math.max(this.s.leaseMs, this.s.timeoutMs + 1000);
    this.perWebhook = Math.max(1, Math.ceil(this.s.concurrency / 2));
    this.recording = {
      workerId: this.id,
      maxAttempts: this.s.maxRetries + 1,
      retryBaseMs: this.s.retryBaseMs,
      deactivateAfter: this.s.deactivateAfter,
    };
    this.sender = new Sender({ timeoutMs: this.s.timeoutMs, allowPrivateUrls: this.s.allowPrivateUrls });
    this.unsubscribe = onEnqueued(() => this.wake());
    if (options.listenUrl) this.listener = listenForDeliveries(options.listenUrl, () => this.wake(), deps.log);
    this.sweepTimer = setInterval(() => void this.sweepOnce(), Math.min(5000, Math.max(250, this.leaseMs / 2)));
    this.sweepTimer.unref();
    void this.sweepOnce();
    this.loopDone = this.loop();
  }

  wake(): void {
    this.pokes += 1;
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.running = false;
      this.unsubscribe();
      clearInterval(this.sweepTimer);
      this.wake();
      await this.loopDone;
      if (this.active > 0) await new Promise<void>((resolve) => this.drainedWaiters.push(resolve));
      this.sender.close();
      await this.listener?.close();
    })();
    return this.stopped;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const seen = this.pokes;
      const now = Date.now();
      this.dues = this.dues.filter((t) => t > now - DUE_MARGIN_MS);
      const free = this.s.concurrency - this.active;
      if (free > 0) {
        try {
          const claims = await claimDue(this.deps.db, {
            workerId: this.id,
            limit: free,
            leaseMs: this.leaseMs,
            perWebhook: this.perWebhook,
            inFlight: this.perHook,
          });
          this.failures.succeeded();
          for (const c of claims) this.dispatch(c);
        } catch (err) {
          if (this.running) this.failures.failed('webhook claim failed', err);
          await this.wait(this.s.pollMs);
          continue;
        }
      }
      if (this.running && this.pokes === seen) await this.wait(this.timeToNextDue());
    }
  }

  private timeToNextDue(): number {
    if (this.dues.length === 0) return this.s.pollMs;
    return Math.min(this.s.pollMs, Math.max(0, Math.min(...this.dues) - Date.now() + DUE_MARGIN_MS));
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve();
      }, ms);
      this.waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private dispatch(c: Claim): void {
    this.active += 1;
    this.perHook.set(c.webhookId, (this.perHook.get(c.webhookId) ?? 0) + 1);
    this.deps.metrics.webhookLag.observe(Math.max(0, Date.now() - c.dueAt.getTime()) / 1000);
    void attempt(this.sender, c).then((outcome) => {
      this.deps.metrics.webhookAttemptDuration.observe(outcome.durationMs / 1000);
      this.finished.push(outcome);
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      if (this.finished.length > 0) this.scheduleFlush();
    });
  }

  /** Records finished attempts in batches; a slot is freed only once its outcome is stored (backpressure). */
  private async flush(): Promise<void> {
    let failures = 0;
    while (this.finished.length > 0) {
      const batch = this.finished.splice(0, FLUSH_BATCH);
      try {
        const r = await recordBatch(this.deps.db, this.deps.metrics, batch, this.recording);
        this.failures.succeeded();
        if (r.nextDue) this.dues.push(r.nextDue.getTime());
      } catch (err) {
        failures += 1;
        this.failures.failed('recording webhook attempts failed', err);
        // While stopping, give up after a few tries: the leases run out and the sweeper retries those attempts.
        if (this.running || failures < 3) {
          this.finished.unshift(...batch);
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
      }
      this.release(batch);
    }
  }

  private release(batch: Outcome[]): void {
    for (const o of batch) {
      const n = (this.perHook.get(o.webhookId) ?? 1) - 1;
      if (n <= 0) this.perHook.delete(o.webhookId);
      else this.perHook.set(o.webhookId, n);
    }
    this.active -= batch.length;
    if (this.active === 0) for (const resolve of this.drainedWaiters.splice(0)) resolve();
    this.wake();
  }

  private async sweepOnce(): Promise<void> {
    if (this.sweeping || !this.running) return;
    this.sweeping = true;
    try {
      if (await sweepAndMeasure(this.deps.db, this.deps.metrics, this.recording.maxAttempts, this.s.retentionDays))
        this.wake();
      for (const prune of this.options.alsoPrune ?? []) await prune(this.deps.db);
    } catch (err) {
      if (this.running) this.failures.failed('webhook sweep failed', err);
    } finally {
      this.sweeping = false;
    }
  }
}
