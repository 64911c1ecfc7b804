import { Type, type Static } from 'typebox';
import { DateTime, Nullable, RowId, StringEnum } from '../../http/schemas.js';

const KeyType = StringEnum(['personal', 'branch', 'public'], {
  description:
    'personal: acts as its staff user (any staff); branch: every exchange of a branch; public: read-only public data (both superadmin only)',
});

const AllowedOrigins = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 20,
  description:
    'Public keys only: the web origins (scheme://host[:port]) whose pages may use the key; empty or absent: any. ' +
    'A convenience against copy-paste onto other sites, not a secret: the key is visible in the page, and any program can send any Origin.',
});

export const CreateApiKeyRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: KeyType,
    branchId: Type.Optional(
      RowId({ description: 'Required for branch and public keys; not allowed for personal keys' }),
    ),
    expiresAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'ISO 8601; the key stops working then. Must be in the future.' }),
    ),
    allowedOrigins: Type.Optional(AllowedOrigins),
  },
  { additionalProperties: false },
);

export const UpdateApiKeyRequest = Type.Object({ allowedOrigins: AllowedOrigins }, { additionalProperties: false });

const NullableDate = Nullable(DateTime);

export const ApiKey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  type: KeyType,
  keyPrefix: Type.String({ description: 'First 20 characters of the key, for display' }),
  branchId: Nullable(Type.Integer(), { description: 'The branch of a branch or public key; null for a personal key' }),
  isActive: Type.Boolean({
    description: 'false once revoked; an expired key stays isActive but is refused after expiresAt',
  }),
  lastUsedAt: NullableDate,
  expiresAt: NullableDate,
  replacedBy: Nullable(Type.String({ format: 'uuid' }), {
    description: 'Set once the key is rolled: the id of its replacement. The key keeps working until expiresAt',
  }),
  allowedOrigins: Type.Array(Type.String(), {
    description: "A public key's allowed web origins (empty: any); always empty for secret keys",
  }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const CreatedApiKey = Type.Object({
  ...ApiKey.properties,
  rawKey: Type.String({ description: 'The full key: returned once, stored hashed, never retrievable again' }),
  note: Type.String(),
});

export const RollApiKeyRequest = Type.Object(
  {
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the old key stops working: in the future, at most 7 days away. Default: 24 hours from now',
      }),
    ),
  },
  { additionalProperties: false, description: 'Optional: an empty or absent body rolls with the defaults' },
);

export const RolledApiKey = Type.Object({
  ...CreatedApiKey.properties,
  previousKey: Type.Object(ApiKey.properties, {
    description: 'The rolled key: it works until its expiresAt, and replacedBy names the new key',
  }),
});

export type CreateApiKeyInput = Static<typeof CreateApiKeyRequest>;
export type UpdateApiKeyInput = Static<typeof UpdateApiKeyRequest>;
