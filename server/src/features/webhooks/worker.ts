import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { listenForDeliveries } from './listen.js';
import { onEnqueued } from './outbox.js';
import { claimDue, type Claim } from './claim.js';
import { countRecorded, recordOutcomes, type Outcome } from './record.js';
import { Sender } from './sender.js';
import { deliveryHeaders } from './signing.js';
import { sweepAndMeasure } from './sweep.js';

export interface WorkerOptions {
  id?: string;
  /** Overrides of the configured webhook settings (tests and the benchmark). */
  settings?: Partial<Config['webhooks']>;
  /** Postgres URL to LISTEN on for deliveries committed elsewhere; the configured DATABASE_URL by default, null for none. */
  listenUrl?: string | null;
}

export interface WebhookWorker {
  readonly id: string;
  /** Look for due deliveries now rather than at the next poll. */
  wake(): void;
  /** Stops claiming, lets the attempts in flight finish and be recorded, then returns. */
  stop(): Promise<void>;
}

export function startWorker(ctx: AppContext, options: WorkerOptions = {}): WebhookWorker {
  return new Worker(ctx, options);
}

/** Lets a wait end early: the margin keeps a wake-up at a retry's due time from landing a hair before it. */
const DUE_MARGIN_MS = 10;
const FLUSH_BATCH = 500;

class Worker implements WebhookWorker {
  readonly id: string;
  private readonly s: Config['webhooks'];
  private readonly leaseMs: number;
  private readonly perWebhook: number;
  private readonly maxAttempts: number;
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
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private readonly listener?: { close(): Promise<void> };
  private readonly loopDone: Promise<void>;
  private stopped?: Promise<void>;

  constructor(private readonly ctx: AppContext, options: WorkerOptions) {
    this.id = options.id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.s = { ...ctx.config.webhooks, ...options.settings };
    // A lease must outlast the attempt it covers, or a slow receiver would get the attempt twice.
    this.leaseMs = Math.max(this.s.leaseMs, this.s.timeoutMs + 1000);
    this.perWebhook = Math.max(1, Math.ceil(this.s.concurrency / 2));
    this.maxAttempts = this.s.maxRetries + 1;
    this.sender = new Sender({ timeoutMs: this.s.timeoutMs, allowPrivateUrls: this.s.allowPrivateUrls });
    this.unsubscribe = onEnqueued(() => this.wake());
    const listenUrl = options.listenUrl === undefined ? (ctx.database.kind === 'postgres' ? ctx.config.databaseUrl : undefined) : options.listenUrl;
    if (listenUrl) this.listener = listenForDeliveries(listenUrl, () => this.wake(), ctx.log);
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
          const exclude = [...this.perHook].filter(([, n]) => n >= this.perWebhook).map(([id]) => id);
          const claims = await claimDue(this.ctx.db, { workerId: this.id, limit: free, leaseMs: this.leaseMs, perWebhook: this.perWebhook, exclude });
          for (const c of claims) this.dispatch(c);
        } catch (err) {
          if (this.running) this.ctx.log('error', 'webhook claim failed', { err });
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
      const timer = setTimeout(() => { this.waiter = null; resolve(); }, ms);
      this.waiter = () => { clearTimeout(timer); resolve(); };
    });
  }

  private dispatch(c: Claim): void {
    this.active += 1;
    this.perHook.set(c.webhookId, (this.perHook.get(c.webhookId) ?? 0) + 1);
    this.ctx.metrics.webhookLag.observe(Math.max(0, Date.now() - c.dueAt.getTime()) / 1000);
    const headers = deliveryHeaders({ id: c.id, event: c.event, body: c.body, secret: c.secret, attempt: c.attempt });
    void this.sender.send(c.url, headers, c.body)
      .catch((err: Error) => ({ ok: false, startedAt: new Date(), durationMs: 0, status: null, body: null, error: err.message }))
      .then((r) => {
        this.ctx.metrics.webhookAttemptDuration.observe(r.durationMs / 1000);
        this.finished.push({ ...r, id: c.id, webhookId: c.webhookId, attempt: c.attempt });
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
        const r = await recordOutcomes(this.ctx.db, batch, {
          workerId: this.id, maxAttempts: this.maxAttempts, retryBaseMs: this.s.retryBaseMs, deactivateAfter: this.s.deactivateAfter,
        });
        countRecorded(this.ctx.metrics, r);
        if (r.nextDue) this.dues.push(r.nextDue.getTime());
      } catch (err) {
        failures += 1;
        this.ctx.log('error', 'recording webhook attempts failed', { err });
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
      if (await sweepAndMeasure(this.ctx, this.maxAttempts, this.s.retentionDays)) this.wake();
    } catch (err) {
      if (this.running) this.ctx.log('warn', 'webhook sweep failed', { err });
    } finally {
      this.sweeping = false;
    }
  }
}
