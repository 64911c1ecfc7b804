import { channel } from 'node:diagnostics_channel';
import type { Database, Tx } from '../../db/database.js';
import { IdempotencyError } from './errors.js';
import * as repo from './repository.js';

/** Keys are kept this long after their first use (Stripe keeps them 24 hours). */
export const KEY_TTL_HOURS = 24;

export const pruneIdempotencyKeys: typeof repo.pruneExpired = (...args) => repo.pruneExpired(...args);

export interface IdempotencyOptions {
  /** How long a repeat waits for the first request with its key to finish before it gets 409. */
  lockWaitMs: number;
}

/**
 * Published after the commit of a first request, before its answer: its owner and key (`{ apiKeyId, key }` or
 * `{ staffUserId, key }`). The crash test's preload subscribes and kills the process there, to prove a retry gets
 * the stored answer; without a subscriber publishing costs nothing.
 */
export const COMMITTED_CHANNEL = 'pxs:idempotency:committed';
const committed = channel(COMMITTED_CHANNEL);

/** Whose key it is: an API key's (partner routes) or a staff user's (back-office routes); scoped to that owner. */
export type IdempotencyOwner = repo.Owner;

export interface IdempotentRequest {
  owner: IdempotencyOwner;
  key: string;
  hash: string;
}
export interface Answer {
  status: number;
  body: string;
}

/**
 * Runs `work` once per key: in one transaction it takes the key, runs the work (which writes what it creates
 * with `tx`) and stores the answer, so that what was created and the answer that names it commit together or
 * not at all. A repeat with the same body gets the stored answer (`replayed`), a different body 422, and a repeat
 * arriving while the first runs waits for it up to `lockWaitMs`, then gets 409. A failed first request stores
 * nothing: its transaction rolls back and the key is free again.
 */
export async function runOnce(
  db: Database,
  options: IdempotencyOptions,
  req: IdempotentRequest,
  work: (tx: Tx) => Promise<Answer>,
): Promise<Answer & { replayed: boolean }> {
  let answer: Answer & { replayed: boolean };
  try {
    answer = await db.transaction().execute(async (tx) => {
      await repo.setLockTimeout(tx, options.lockWaitMs);
      if (!(await repo.claim(tx, req.owner, req.key, req.hash, KEY_TTL_HOURS)))
        return replay(await repo.findStored(tx, req.owner, req.key), req.hash);
      await repo.clearLockTimeout(tx);
      const done = await work(tx);
      await repo.store(tx, req.owner, req.key, done.status, done.body);
      return { ...done, replayed: false };
    });
  } catch (err) {
    if (lockNotAvailable(err)) throw inProgress();
    throw err;
  }
  if (!answer.replayed && committed.hasSubscribers) committed.publish({ ...req.owner, key: req.key });
  return answer;
}

function replay(row: repo.StoredRow | undefined, hash: string): Answer & { replayed: boolean } {
  // Absent: the row was pruned between the claim and this read; the client's retry claims the key afresh.
  if (!row || row.status === null || row.response === null) throw inProgress();
  if (row.request_hash !== hash) {
    throw IdempotencyError.keyReusedForAnotherRequest();
  }
  return { status: row.status, body: row.response, replayed: true };
}

function inProgress() {
  return IdempotencyError.stillInProgress();
}

/** SQLSTATE 55P03: the lock timeout ran out while waiting for the request holding the key. */
function lockNotAvailable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '55P03';
}
