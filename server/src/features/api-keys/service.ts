import type { Executor } from '../../db/database.js';
import { mapPage, type ListParams } from '../../db/list.js';
import type { StaffRole } from '../../db/schema.js';
import { badRequest, fieldNotFound, forbidden } from '../../http/errors.js';
import { branchExists } from '../branches/service.js';
import { issueApiKey, RAW_KEY_NOTE } from './issue.js';
import * as repo from './repository.js';
import type { ApiKeyView } from './repository.js';
import type { CreateApiKeyInput } from './schemas.js';

/** Authentication's read of a key and its batched lastUsedAt write (auth/, wired in context.ts). */
export { findKeyByHash, recordLastUsed } from './repository.js';

/** Empties the verified-key caches of every instance (KeyVerifier.invalidate). */
export interface KeyCaches { invalidate(reason: string): Promise<void> }

export function apiKeyView(k: ApiKeyView) {
  return {
    id: k.id, name: k.name, type: k.type, keyPrefix: k.key_prefix, branchId: k.branch_id, isActive: k.is_active,
    lastUsedAt: k.last_used_at, expiresAt: k.expires_at, createdAt: k.created_at, updatedAt: k.updated_at,
  };
}

/**
 * The rules of key creation (partner-api.md, API key management; decisions §9): a personal key for any staff
 * user, acting as that user; branch and public keys only by a superadmin, for a named existing branch.
 */
export async function createApiKey(db: Executor, owner: { staffUserId: number; role: StaffRole }, input: CreateApiKeyInput, now = new Date()) {
  const name = input.name.trim();
  if (name.length === 0) throw badRequest('name should not be empty', { name: 'tooShort' });
  if (input.type !== 'personal' && owner.role !== 'superadmin') throw forbidden(`Only a superadmin can create a ${input.type} key`);
  if (input.type === 'personal' && input.branchId !== undefined) {
    throw badRequest('branchId is not allowed for a personal key: it acts with its staff user\'s scope', { branchId: 'notAllowed' });
  }
  if (input.type !== 'personal' && input.branchId === undefined) throw badRequest(`branchId is required for a ${input.type} key`, { branchId: 'required' });
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw badRequest('expiresAt must be in the future', { expiresAt: 'inPast' });
  if (input.branchId !== undefined) {
    if (!(await branchExists(db, input.branchId))) throw fieldNotFound('branchId');
  }
  const { key, rawKey } = await issueApiKey(db, { name, type: input.type, staffUserId: owner.staffUserId, branchId: input.branchId ?? null, expiresAt });
  return { ...apiKeyView(key), rawKey, note: RAW_KEY_NOTE };
}

/** The caller's own keys, newest first. */
export async function listApiKeys(db: Executor, staffUserId: number) {
  return (await repo.listApiKeysOfStaff(db, staffUserId)).map(apiKeyView);
}

/** Every key, or one staff user's, for the command line. */
export function listAllApiKeys(db: Executor, staffUserId?: number) {
  return repo.listAllApiKeys(db, staffUserId);
}

/**
 * Revokes a key (`ownerId` limits it to the owner's keys; null: any key) and empties the key caches here and on
 * every instance, so it is refused at once. False when there is no such key.
 */
export async function revokeApiKey(db: Executor, keys: KeyCaches, id: string, ownerId: number | null): Promise<boolean> {
  if (!(await repo.revokeApiKey(db, id, ownerId))) return false;
  await keys.invalidate('api key revoked');
  return true;
}

/** A branch's keys (every key for a superadmin, `branchId` null), with their owner's email; never the hash. */
export async function listBranchKeys(db: Executor, branchId: number | null, params: ListParams) {
  return mapPage(await repo.listBranchKeys(db, branchId, params), (k) => Object.assign(apiKeyView(k), { staffUserId: k.staff_user_id, ownerEmail: k.owner_email }));
}

/** Revokes a key in the branch's reach (any for a superadmin), effective at once on every instance; false when none. */
export async function revokeBranchKey(db: Executor, keys: KeyCaches, branchId: number | null, id: string): Promise<boolean> {
  if (!(await repo.revokeBranchKey(db, branchId, id))) return false;
  await keys.invalidate('api key revoked');
  return true;
}
