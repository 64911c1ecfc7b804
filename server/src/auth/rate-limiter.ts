import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the current window resets. */
  resetMs: number;
}

/**
 * Fixed windows counted atomically: in process, or in Redis (INCR + PEXPIRE in one script) so that every
 * instance sharing Redis enforces one exact limit.
 *
 * In process the count is decided synchronously (`consume` returns the decision itself, not a promise): the
 * library's in-memory limiter answers through promises only, which cost every partner request two promises and
 * turns of the microtask queue for a decision made in a Map. Its windows are the same: a window opens at a key's
 * first point and lasts `windowSeconds`; a point over the limit is still counted.
 */
export class RateLimiter {
  private readonly remote: RateLimiterAbstract | undefined;
  private readonly local: LocalWindows | undefined;

  constructor(
    readonly name: string,
    readonly limit: number,
    readonly windowSeconds: number,
    redis?: Redis,
    namespace = 'pxs',
  ) {
    const options = { keyPrefix: `${namespace}:rl:${name}`, points: limit, duration: windowSeconds };
    // If Redis fails, each instance keeps limiting on its own rather than refusing or waving requests through.
    // rejectIfRedisNotReady: while Redis reconnects, count in memory at once instead of trying Redis first.
    if (redis)
      this.remote = new RateLimiterRedis({
        ...options,
        storeClient: redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      });
    else this.local = new LocalWindows(windowSeconds * 1000);
  }

  /** Counts one request: the decision at once in process, a promise of it when counted in Redis. */
  consume(key: string): RateDecision | Promise<RateDecision> {
    if (this.local) {
      const w = this.local.add(key, 1);
      return this.decision(w.points <= this.limit, w.points, w.resetAt - Date.now());
    }
    return this.consumeRemote(this.remote!, key);
  }

  /** Reads the current window without counting a request. */
  async peek(key: string): Promise<RateDecision | null> {
    if (this.local) {
      const w = this.local.get(key);
      return w ? this.decision(w.points <= this.limit, w.points, w.resetAt - Date.now()) : null;
    }
    const res = await this.remote!.get(key);
    if (!res) return null;
    return this.decision(res.consumedPoints <= this.limit, res.consumedPoints, res.msBeforeNext);
  }

  /** Gives back a point consumed earlier in the window (a login that turned out to succeed). */
  async refund(key: string): Promise<void> {
    if (this.local) this.local.add(key, -1);
    else await this.remote!.reward(key, 1);
  }

  async reset(key: string): Promise<void> {
    if (this.local) this.local.delete(key);
    else await this.remote!.delete(key);
  }

  private async consumeRemote(remote: RateLimiterAbstract, key: string): Promise<RateDecision> {
    try {
      const res = await remote.consume(key, 1);
      return this.decision(true, res.consumedPoints, res.msBeforeNext);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes)
        return this.decision(false, rejection.consumedPoints, rejection.msBeforeNext);
      throw rejection;
    }
  }

  private decision(allowed: boolean, consumed: number, resetMs: number): RateDecision {
    return { allowed, limit: this.limit, remaining: Math.max(0, this.limit - consumed), resetMs: Math.max(0, resetMs) };
  }
}

interface Window {
  points: number;
  resetAt: number;
}

/**
 * Windows kept in this process. An ended window is replaced at its key's next point; ended ones are swept at most
 * once per window length, when a window opens, so keys seen once (addresses guessing keys) do not stay, with no timer.
 */
class LocalWindows {
  private readonly windows = new Map<string, Window>();
  private sweptAt = Date.now();

  constructor(private readonly windowMs: number) {}

  add(key: string, points: number): Window {
    const now = Date.now();
    let w = this.windows.get(key);
    if (w === undefined || w.resetAt <= now) {
      if (now - this.sweptAt >= this.windowMs) this.sweep(now);
      this.windows.set(key, (w = { points: 0, resetAt: now + this.windowMs }));
    }
    w.points += points;
    return w;
  }

  get(key: string): Window | undefined {
    const w = this.windows.get(key);
    return w !== undefined && w.resetAt > Date.now() ? w : undefined;
  }

  delete(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
