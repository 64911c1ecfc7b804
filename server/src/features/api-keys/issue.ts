import { displayPrefix, generateApiKey, hashApiKey } from '../../auth/key-format.js';
import type { Executor } from '../../db/database.js';
import type { ApiKeyType } from '../../db/schema.js';
import { insertApiKey, type ApiKeyView } from './repository.js';

export const RAW_KEY_NOTE = 'Store this key securely: it is shown only once and cannot be retrieved again.';

export interface IssueKeyInput {
  name: string;
  type: ApiKeyType;
  staffUserId: number;
  branchId: number | null;
  expiresAt?: Date | null;
  allowedOrigins?: string[];
}

/** Creates a key and returns it with its raw value: the only moment the raw key exists outside the caller. */
export async function issueApiKey(db: Executor, input: IssueKeyInput): Promise<{ key: ApiKeyView; rawKey: string }> {
  const rawKey = generateApiKey(input.type);
  const key = await insertApiKey(db, {
    name: input.name,
    type: input.type,
    keyHash: hashApiKey(rawKey),
    keyPrefix: displayPrefix(rawKey),
    staffUserId: input.staffUserId,
    branchId: input.type === 'personal' ? null : input.branchId,
    expiresAt: input.expiresAt ?? null,
    allowedOrigins: input.type === 'public' ? (input.allowedOrigins ?? []) : [],
  });
  return { key, rawKey };
}
