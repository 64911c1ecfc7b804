import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { setRateLimitHeaders } from '../../src/auth/rate-limit-headers.js';

function headersFor(remaining: number, limit: number): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  const reply = {
    header: (name: string, value: unknown) => {
      headers[name] = value;
      return reply;
    },
  };
  setRateLimitHeaders(reply as unknown as FastifyReply, { allowed: true, limit, remaining, resetMs: 1500 }, 60);
  return headers;
}

describe('rate-limit headers', () => {
  // The remaining count is written without the number-to-string cache (see digits()): the text must not change,
  // up to a count past 2^53, where toFixed and String would write different digits.
  // eslint-disable-next-line no-loss-of-precision -- the count past 2^53 said above
  const past53 = 12_345_678_901_234_567_890;
  it.each([0, 7, 59, 999_999_999, 2 ** 31, Number.MAX_SAFE_INTEGER, past53])(
    'writes %d remaining as plain digits in both header families',
    (remaining) => {
      const h = headersFor(remaining, Number.MAX_SAFE_INTEGER);
      expect(h['x-ratelimit-remaining']).toBe(String(remaining));
      expect(h.ratelimit).toBe(`"default";r=${String(remaining)};t=2`);
    },
  );
});
