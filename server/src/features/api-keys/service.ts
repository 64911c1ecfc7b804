import type { Executor } from '../../db/database.js';
import { inTransaction, lockFor } from '../../db/locks.js';
import { mapPage, type ListParams } from '../../db/list.js';
import type { StaffRole } from '../../db/schema.js';
import type { Audit } from '../audit/service.js';
import { branchExists } from '../branches/service.js';
import { ApiKeyError } from './errors.js';
import { issueApiKey, RAW_KEY_NOTE } from './issue.js';
import { apiKeyView } from './presenters.js';
import * as repo from './repository.js';
import { normalizeOrigins } from './origins.js';
import type { CreateApiKeyInput, UpdateApiKeyInput } from './schemas.js';

/** Authentication's read of a key and its batched lastUsedAt write (auth/, wired in context.ts). */
export const findKeyByHash: typeof repo.findKeyByHash = (...args) => repo.findKeyByHash(...args);
export const recordLastUsed: typeof repo.recordLastUsed = (...args) => repo.recordLastUsed(...args);

/** Empties the verified-key caches of every instance (KeyVerifier.invalidate). */
export interface KeyCaches {
  invalidate(reason: string): Promise<void>;
}

/**
 * The rules of key creation (partner-api.md, API key management; docs/decisions.md, "Staff, keys and the back office"): a personal key for any staff
 * user, acting as that user; branch and public keys only by a superadmin, for a named existing branch. A staff
 * user holds at most `personalKeyLimit` working personal keys (docs/decisions.md, "Limits per owner").
 */
export async function createApiKey(
  db: Executor,
  audit: Audit,
  owner: { staffUserId: number; role: StaffRole },
  input: CreateApiKeyInput,
  personalKeyLimit: number,
  now = new Date(),
) {
  const name = input.name.trim();
  if (name.length === 0) throw ApiKeyError.nameEmpty();
  if (input.type !== 'personal' && owner.role !== 'superadmin') throw ApiKeyError.typeNeedsSuperadmin(input.type);
  if (input.type === 'personal' && input.branchId !== undefined) {
    throw ApiKeyError.branchForPersonalKey();
  }
  if (input.allowedOrigins !== undefined && input.type !== 'public') throw ApiKeyError.originsForPublicKeysOnly();
  const allowedOrigins = normalizeOrigins(input.allowedOrigins ?? []);
  if (input.type !== 'personal' && input.branchId === undefined) throw ApiKeyError.branchRequired(input.type);
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw ApiKeyError.expiryInPast();
  if (input.branchId !== undefined) {
    if (!(await branchExists(db, input.branchId))) throw ApiKeyError.branchNotFound();
  }
  return inTransaction(db, async (tx) => {
    if (input.type === 'personal') {
      await lockFor(tx, `personal-keys:${owner.staffUserId}`);
      if ((await repo.countActivePersonalKeys(tx, owner.staffUserId)) >= personalKeyLimit) {
        throw ApiKeyError.personalKeyLimit(personalKeyLimit);
      }
    }
    const { key, rawKey } = await issueApiKey(tx, {
      name,
      type: input.type,
      staffUserId: owner.staffUserId,
      branchId: input.branchId ?? null,
      expiresAt,
      allowedOrigins,
    });
    const view = apiKeyView(key);
    await audit.record(tx, {
      action: 'apiKey.create',
      entityType: 'apiKey',
      entityId: key.id,
      branchId: await repo.keyBranch(tx, key.id),
      after: view,
    });
    return { ...view, rawKey, note: RAW_KEY_NOTE };
  });
}

/**
 * Replaces a public key's allowed origins (`ownerId`: the caller's own personal keys, repo.ownKeys, so none; null:
 * any key) and empties the key caches everywhere, so the new list applies at once. 404 when it reaches no such key.
 */
export async function updateApiKey(
  db: Executor,
  keys: KeyCaches,
  audit: Audit,
  id: string,
  ownerId: number | null,
  input: UpdateApiKeyInput,
) {
  const allowedOrigins = normalizeOrigins(input.allowedOrigins);
  const updated = await inTransaction(db, async (tx) => {
    const row = await repo.updateAllowedOrigins(tx, id, ownerId, allowedOrigins);
    if (row)
      await audit.record(tx, {
        action: 'apiKey.update',
        entityType: 'apiKey',
        entityId: id,
        branchId: await repo.keyBranch(tx, id),
        after: { allowedOrigins },
      });
    return row;
  });
  if (!updated) {
    if (await repo.findOwnKeyType(db, id, ownerId)) throw ApiKeyError.originsForPublicKeysOnly();
    throw ApiKeyError.notFound();
  }
  await keys.invalidate('api key origins changed');
  return apiKeyView(updated);
}

/** The caller's own keys, newest first (branch and public keys only for a superadmin: repo.ownKeys). */
export async function listApiKeys(db: Executor, staff: { staffUserId: number; role: StaffRole }) {
  return (await repo.listApiKeysOfStaff(db, staff.staffUserId, staff.role === 'superadmin')).map(apiKeyView);
}

/** Every key, or one staff user's, for the command line. */
export function listAllApiKeys(db: Executor, staffUserId?: number) {
  return repo.listAllApiKeys(db, staffUserId);
}

/**
 * Revokes a key (`ownerId`: the caller's own personal keys, repo.ownKeys; null: any key) and empties the key
 * caches here and on every instance, so it is refused at once. False when it reaches no such key.
 */
export async function revokeApiKey(
  db: Executor,
  keys: KeyCaches,
  id: string,
  ownerId: number | null,
  audit: Audit,
): Promise<boolean> {
  const revoked = await inTransaction(db, async (tx) => {
    if (!(await repo.revokeApiKey(tx, id, ownerId))) return false;
    await audit.record(tx, {
      action: 'apiKey.revoke',
      entityType: 'apiKey',
      entityId: id,
      branchId: await repo.keyBranch(tx, id),
      after: { isActive: false },
    });
    return true;
  });
  if (!revoked) return false;
  await keys.invalidate('api key revoked');
  return true;
}

/** A branch's keys (every key for a superadmin, `branchId` null), with their owner's email; never the hash. */
export async function listBranchKeys(db: Executor, branchId: number | null, params: ListParams) {
  return mapPage(await repo.listBranchKeys(db, branchId, params), (k) =>
    Object.assign(apiKeyView(k), { staffUserId: k.staff_user_id, ownerEmail: k.owner_email }),
  );
}

/** Revokes a key in the branch's reach (any for a superadmin), effective at once on every instance; false when none. */
export async function revokeBranchKey(
  db: Executor,
  keys: KeyCaches,
  branchId: number | null,
  id: string,
  audit: Audit,
): Promise<boolean> {
  const revoked = await inTransaction(db, async (tx) => {
    if (!(await repo.revokeBranchKey(tx, branchId, id))) return false;
    await audit.record(tx, {
      action: 'apiKey.revoke',
      entityType: 'apiKey',
      entityId: id,
      branchId: await repo.keyBranch(tx, id),
      after: { isActive: false },
    });
    return true;
  });
  if (!revoked) return false;
  await keys.invalidate('api key revoked');
  return true;
}
