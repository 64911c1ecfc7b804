import type { Database } from '../../db/database.js';
import type { Audit } from '../audit/service.js';
import type { ApiKeyType } from '../../db/schema.js';
import { ApiKeyError } from './errors.js';
import { issueApiKey, RAW_KEY_NOTE } from './issue.js';
import * as repo from './repository.js';
import { apiKeyView } from './presenters.js';
import type { KeyCaches } from './service.js';

const HOUR_MS = 3_600_000;
/** How long the old key keeps working when the caller names no time (Stripe's and Svix's default). */
export const DEFAULT_ROLL_OVERLAP_MS = 24 * HOUR_MS;
export const MAX_ROLL_OVERLAP_MS = 7 * 24 * HOUR_MS;

/** When the rolled key stops working: `expiresAt` if given, else a day from now; never beyond seven days. */
function overlapEnd(expiresAt: string | undefined, now: Date): Date {
  if (expiresAt === undefined) return new Date(now.getTime() + DEFAULT_ROLL_OVERLAP_MS);
  const end = new Date(expiresAt);
  if (end.getTime() <= now.getTime()) throw ApiKeyError.expiryInPast();
  if (end.getTime() > now.getTime() + MAX_ROLL_OVERLAP_MS) throw ApiKeyError.rollOverlapTooLong();
  return end;
}

/** The keys a roll reaches; `rollerId` names a caller who is not a superadmin (see refuseRoll). */
export type RollReach = repo.KeyReach & { rollerId?: number };

/**
 * A roll hands over a new raw secret, so a caller who is not a superadmin rolls only its own personal keys:
 * another user's would let it act as that user unnoticed, and branch and public keys are a superadmin's to issue.
 * A branch's admin may still revoke them (docs/decisions.md, "Who manages which key").
 */
function refuseRoll(key: { type: ApiKeyType; staff_user_id: number }, rollerId: number) {
  if (key.type !== 'personal') throw ApiKeyError.rollNeedsSuperadmin(key.type);
  if (key.staff_user_id !== rollerId) {
    throw ApiKeyError.rollOfAnotherUsersKey();
  }
}

/**
 * Replaces a key without a hard cut: a new key of the same name, type, branch and owner (and the old key's own
 * expiry, if it had one), while the old key keeps working until the chosen end of the overlap (or its own
 * earlier expiry) and points at its replacement. The key caches are emptied everywhere, so every instance
 * applies the old key's new expiry at once. A revoked, expired or already rolled key cannot be rolled (422).
 */
export async function rollApiKey(
  db: Database,
  keys: KeyCaches,
  audit: Audit,
  reach: RollReach,
  id: string,
  input: { expiresAt?: string },
  now = new Date(),
) {
  const end = overlapEnd(input.expiresAt, now);
  const rolled = await db.transaction().execute(async (tx) => {
    const old = await repo.findKeyForRoll(tx, reach, id);
    if (!old) throw ApiKeyError.notFound();
    if (reach.rollerId !== undefined) refuseRoll(old, reach.rollerId);
    if (!old.is_active) throw ApiKeyError.rollOfRevokedKey();
    if (old.expires_at && old.expires_at.getTime() <= now.getTime()) throw ApiKeyError.rollOfExpiredKey();
    if (old.replaced_by) throw ApiKeyError.alreadyRolled(old.replaced_by);
    const { key, rawKey } = await issueApiKey(tx, {
      name: old.name,
      type: old.type,
      staffUserId: old.staff_user_id,
      branchId: old.branch_id,
      expiresAt: old.expires_at,
    });
    const oldEnd = old.expires_at && old.expires_at.getTime() < end.getTime() ? old.expires_at : end;
    const previous = await repo.markRolled(tx, old.id, key.id, oldEnd);
    await audit.record(tx, {
      action: 'apiKey.roll',
      entityType: 'apiKey',
      entityId: old.id,
      branchId: await repo.keyBranch(tx, old.id),
      before: { expiresAt: old.expires_at, replacedBy: null },
      after: { expiresAt: oldEnd, replacedBy: key.id },
    });
    return { key, rawKey, previous };
  });
  await keys.invalidate('api key rolled');
  return {
    ...apiKeyView(rolled.key),
    rawKey: rolled.rawKey,
    note: RAW_KEY_NOTE,
    previousKey: apiKeyView(rolled.previous),
  };
}
