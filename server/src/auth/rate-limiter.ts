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
 */
export class RateLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(readonly name: string, readonly limit: number, readonly windowSeconds: number, redis?: Redis, namespace = 'pxs') {
    const options = { keyPrefix: `${namespace}:rl:${name}`, points: limit, duration: windowSeconds };
    // If Redis fails, each instance keeps limiting on its own rather than refusing or waving requests through.
    this.limiter = redis
      // rejectIfRedisNotReady: while Redis reconnects, count in memory at once instead of trying Redis first.
      ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  }

  async consume(key: string): Promise<RateDecision> {
    try {
      const res = await this.limiter.consume(key, 1);
      return this.decision(true, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(false, rejection);
      throw rejection;
    }
  }

  /** Reads the current window without counting a request. */
  async peek(key: string): Promise<RateDecision | null> {
    const res = await this.limiter.get(key);
    if (!res) return null;
    return this.decision(res.consumedPoints <= this.limit, res);
  }

  /** Gives back a point consumed earlier in the window (a login that turned out to succeed). */
  async refund(key: string): Promise<void> {
    await this.limiter.reward(key, 1);
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }

  private decision(allowed: boolean, res: RateLimiterRes): RateDecision {
    return { allowed, limit: this.limit, remaining: Math.max(0, res.remainingPoints), resetMs: Math.max(0, res.msBeforeNext) };
  }
}
