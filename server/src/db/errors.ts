import { declareErrors } from '../domain-error.js';

/** Why a list could not be read from the position asked for. */
export const ListError = declareErrors('lists', {
  cursorInvalid: () => ({}),
});

/**
 * The name of the unique constraint a statement violated (SQLSTATE 23505), or null for any other error.
 * pg and PGlite report it alike. Checking before inserting cannot close the race; this turns the loser of
 * a race into a 400 instead of a 500.
 */
export function uniqueViolation(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const { code, constraint } = err as { code?: unknown; constraint?: string };
  return code === '23505' ? (constraint ?? '') : null;
}

/** Node socket errors of a lost or refused database connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * pg's own messages when the server goes away mid-query, a statement goes unanswered past its timeout (a cut
 * without a reset: db/prepared.ts), a connection is not made in time ("timeout expired": db/database.ts), or a
 * checkout waits too long for a connection.
 */
const LOST =
  /Connection terminated|Client has encountered a connection error|connection timeout|timeout exceeded when trying to connect|Client was closed and is not queryable|Query read timeout|^timeout expired$/i;

/**
 * Whether an error means the database cannot be reached right now (network, restart, failover) rather than that
 * the request or the code is wrong: SQLSTATE class 08 (connection exception), 57P01–57P03 (admin or crash
 * shutdown, cannot connect now), 53300 (too many connections), a socket error, or pg's lost-connection messages.
 */
export function databaseUnavailable(err: unknown): boolean {
  for (
    let e = err, depth = 0;
    typeof e === 'object' && e !== null && depth < 5;
    e = (e as { cause?: unknown }).cause, depth += 1
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      (code.startsWith('08') ||
        code === '57P01' ||
        code === '57P02' ||
        code === '57P03' ||
        code === '53300' ||
        NETWORK_CODES.has(code))
    )
      return true;
    if (typeof message === 'string' && LOST.test(message)) return true;
    // Promise.all over several connection attempts (the pool's warm-up) rejects with an AggregateError.
    if (e instanceof AggregateError && e.errors.some(databaseUnavailable)) return true;
  }
  return false;
}
