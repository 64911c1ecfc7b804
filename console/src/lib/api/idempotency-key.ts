import { v4 as uuidv4 } from 'uuid';

/**
 * A fresh `Idempotency-Key`: a version 4 UUID. `crypto.randomUUID` exists only in a secure context, and the console
 * may be opened at a plain-http address other than localhost; the `uuid` package draws from `getRandomValues`, which
 * every context has.
 */
export function newIdempotencyKey(): string {
  return uuidv4();
}
