import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../src/auth/rate-limiter.js';

afterEach(() => vi.useRealTimers());

describe('RateLimiter in process', () => {
  it('decides at once (no promise), counts a point over the limit, and opens a new window when one ends', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const limiter = new RateLimiter('unit', 2, 60);
    const first = limiter.consume('k');
    expect(first).not.toBeInstanceOf(Promise);
    expect(first).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 60_000 });
    vi.advanceTimersByTime(1_000);
    expect(limiter.consume('k')).toEqual({ allowed: true, limit: 2, remaining: 0, resetMs: 59_000 });
    expect(limiter.consume('k')).toEqual({ allowed: false, limit: 2, remaining: 0, resetMs: 59_000 });
    // Another key has its own window.
    expect(limiter.consume('other')).toMatchObject({ allowed: true, remaining: 1 });
    vi.advanceTimersByTime(59_000);
    expect(limiter.consume('k')).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: 60_000 });
  });

  it('peeks without counting, gives a point back, and resets a key', async () => {
    const limiter = new RateLimiter('unit', 3, 60);
    expect(await limiter.peek('k')).toBeNull();
    await limiter.consume('k');
    await limiter.consume('k');
    expect(await limiter.peek('k')).toMatchObject({ allowed: true, remaining: 1 });
    await limiter.refund('k');
    expect(await limiter.peek('k')).toMatchObject({ allowed: true, remaining: 2 });
    await limiter.reset('k');
    expect(await limiter.peek('k')).toBeNull();
  });

  it('forgets ended windows, so keys seen once do not stay', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const limiter = new RateLimiter('unit', 5, 1);
    for (let i = 0; i < 1000; i++) void limiter.consume(`ip-${i}`);
    vi.advanceTimersByTime(1_000);
    void limiter.consume('late');
    const windows = (limiter as unknown as { local: { windows: Map<string, unknown> } }).local.windows;
    expect([...windows.keys()]).toEqual(['late']);
  });
});
