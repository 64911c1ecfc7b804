import { createHash } from 'node:crypto';
import { IdempotencyError } from './errors.js';

/** 1–255 printable ASCII characters (space to tilde), as Stripe takes them. */
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The `Idempotency-Key` header's value: undefined when absent; a 400 when malformed. */
export function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY.test(header)) throw IdempotencyError.keyMalformed();
  return header;
}

/**
 * What makes two requests "the same": method, path and body, the body with its keys sorted at every level so
 * that a client re-serializing the same object in another key order is still recognized.
 */
export function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
