import type { FastifyReply } from 'fastify';
import { AppError } from '../http/errors.js';
import type { RateDecision } from './rate-limiter.js';

/**
 * Sets both header families: the de-facto `X-RateLimit-*` (reset as a Unix time, as GitHub does) and the
 * IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers: `RateLimit`, `RateLimit-Policy`).
 */
export function setRateLimitHeaders(
  reply: FastifyReply,
  d: RateDecision,
  windowSeconds: number,
  policy = 'default',
): void {
  const resetSeconds = Math.max(1, Math.ceil(d.resetMs / 1000));
  const remaining = digits(d.remaining);
  // Names in lower case, as Fastify stores them: it lowercases each name it is given, a new string per call for
  // a mixed-case one (five of them were most of Reply.header's time on a cached read). HTTP names are case-blind.
  reply.header('x-ratelimit-limit', d.limit);
  reply.header('x-ratelimit-remaining', remaining);
  reply.header('x-ratelimit-reset', Math.ceil((Date.now() + d.resetMs) / 1000));
  reply.header('ratelimit-policy', `"${policy}";q=${d.limit};w=${windowSeconds}`);
  reply.header('ratelimit', `"${policy}";r=${remaining};t=${resetSeconds}`);
}

/**
 * A count as decimal digits, without V8's number-to-string cache. String(n), `${n}` and n.toString() keep each
 * result in that cache, which lives in the old generation, so a string made there outlives the scavenges until
 * another number takes its slot. The remaining count differs on every request of a busy key: through the cache
 * it put one string per request into the old generation, 33 of the 86 bytes an offers page promoted, and
 * promotion paces the mark-compacts. toFixed builds a new string with the
 * same digits for any safe integer; past 2^53 it would write the double's exact value where String writes the
 * shortest, so a count that large (from an absurd limit) keeps String's form.
 */
function digits(n: number): string {
  return Number.isSafeInteger(n) ? n.toFixed(0) : String(n);
}

export function rateLimitExceeded(d: RateDecision): AppError {
  const retryAfter = Math.max(1, Math.ceil(d.resetMs / 1000));
  return new AppError('rateLimited', 'Rate limit exceeded', undefined, { 'Retry-After': retryAfter }, retryAfter);
}
