import type { FastifyReply } from 'fastify';
import { AppError } from '../http/errors.js';
import type { RateDecision } from './rate-limiter.js';

/**
 * Sets both header families: the de-facto `X-RateLimit-*` (reset as a Unix time, as GitHub does) and the
 * IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers: `RateLimit`, `RateLimit-Policy`).
 */
export function setRateLimitHeaders(reply: FastifyReply, d: RateDecision, windowSeconds: number, policy = 'default'): void {
  const resetSeconds = Math.max(1, Math.ceil(d.resetMs / 1000));
  reply.header('X-RateLimit-Limit', d.limit);
  reply.header('X-RateLimit-Remaining', d.remaining);
  reply.header('X-RateLimit-Reset', Math.ceil((Date.now() + d.resetMs) / 1000));
  reply.header('RateLimit-Policy', `"${policy}";q=${d.limit};w=${windowSeconds}`);
  reply.header('RateLimit', `"${policy}";r=${d.remaining};t=${resetSeconds}`);
}

export function rateLimitExceeded(d: RateDecision): AppError {
  const retryAfter = Math.max(1, Math.ceil(d.resetMs / 1000));
  return new AppError('rateLimited', 'Rate limit exceeded', undefined, { 'Retry-After': retryAfter }, retryAfter);
}
