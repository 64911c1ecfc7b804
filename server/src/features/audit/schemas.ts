import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, ListQuery, Nullable, RowId, StringEnum } from '../../http/schemas.js';

export const AUDIT_ENTITIES = [
  'branch',
  'exchange',
  'currency',
  'offer',
  'paymentMethod',
  'staff',
  'client',
  'order',
  'apiKey',
  'webhook',
  'cash',
  'rateSource',
] as const;

const Json = Type.Unsafe<unknown>({
  description: 'A JSON value; secrets, raw keys, hashes and passwords read "[redacted]"',
});

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    actor: StringEnum(['staff', 'cli'], { description: 'A staff user through the API, or the pxs command line' }),
    staffUserId: Nullable(Type.Integer()),
    staffEmail: Nullable(Type.String()),
    role: Type.String({ description: 'The staff user\'s role at the time, or "cli"' }),
    action: Type.String({ description: '<entity>.<verb>, e.g. offer.update, order.move, apiKey.revoke' }),
    entityType: StringEnum(AUDIT_ENTITIES),
    entityId: Type.String(),
    branchId: Nullable(Type.Integer(), {
      description: 'The branch of the changed entity; null for network-wide ones (currencies)',
    }),
    before: Json,
    after: Json,
    ip: Nullable(Type.String()),
    requestId: Nullable(Type.String()),
    createdAt: DateTime,
  },
  { title: 'AuditEntry' },
);

export const AuditList = listEnvelope(AuditEntry);

export const AuditQuery = Type.Object({
  entityType: Type.Optional(StringEnum(AUDIT_ENTITIES)),
  entityId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9-]+$' })),
  actor: Type.Optional(StringEnum(['staff', 'cli'])),
  staffUserId: Type.Optional(RowId()),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z.]+$' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Changes at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Changes before this time' })),
  sort: Type.Optional(StringEnum(['newest', 'oldest'], { default: 'newest' })),
  skip: ListQuery.properties.skip,
  limit: ListQuery.properties.limit,
});
export type AuditQueryInput = Static<typeof AuditQuery>;
