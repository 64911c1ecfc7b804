import type { ApiKeyType } from '../../db/schema.js';
import { declareErrors } from '../../domain-error.js';

/** Why a key could not be created, changed or rolled. */
export const ApiKeyError = declareErrors('apiKeys', {
  notFound: () => ({}),
  nameEmpty: () => ({}),
  typeNeedsSuperadmin: (type: ApiKeyType) => ({ type }),
  branchForPersonalKey: () => ({}),
  branchRequired: (type: ApiKeyType) => ({ type }),
  branchNotFound: () => ({}),
  originsForPublicKeysOnly: () => ({}),
  notAnOrigin: (value: string) => ({ value }),
  expiryInPast: () => ({}),
  personalKeyLimit: (limit: number) => ({ limit }),
  rollOverlapTooLong: () => ({}),
  rollNeedsSuperadmin: (type: ApiKeyType) => ({ type }),
  rollOfAnotherUsersKey: () => ({}),
  rollOfRevokedKey: () => ({}),
  rollOfExpiredKey: () => ({}),
  alreadyRolled: (replacement: string) => ({ replacement }),
});
