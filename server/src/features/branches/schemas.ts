import { Type } from 'typebox';
import { DateTime, listEnvelope } from '../../http/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const IsSandbox = Type.Boolean({
  description:
    "A sandbox branch: partners' secret keys may move their own orders there (POST /partner/sandbox/orders/{id}/status), " +
    'and its orders are marked `sandbox: true`',
});

export const Branch = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  isSandbox: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});
export const BranchList = listEnvelope(Branch);
export const CreateBranchRequest = Type.Object(
  { name: Name, isSandbox: Type.Optional(IsSandbox) },
  { additionalProperties: false },
);
export const UpdateBranchRequest = Type.Object(
  { name: Type.Optional(Name), isSandbox: Type.Optional(IsSandbox) },
  { additionalProperties: false, minProperties: 1 },
);
