import { Type, type Static } from 'typebox';
import { ALL_PERMISSIONS } from '../../auth/principal.js';
import { DateTime, listEnvelope, Nullable, RowId, StringEnum } from '../../http/schemas.js';

const Email = Type.String({ format: 'email', maxLength: 254 });
/** Long enough to resist guessing; the cap keeps one scrypt call bounded. */
const Password = Type.String({ minLength: 12, maxLength: 1024 });
const Role = StringEnum(['superadmin', 'admin', 'operator'], {
  description: 'superadmin: every branch; admin: its branch; operator: its exchanges',
});
const Permissions = Type.Array(StringEnum([...ALL_PERMISSIONS]), {
  uniqueItems: true,
  description: 'What an operator (and its personal keys) may do; superadmins and admins hold every permission',
});
const ExchangeIds = Type.Array(RowId(), { uniqueItems: true, maxItems: 1000 });
const BranchId = RowId();

export const LoginRequest = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const LoginResponse = Type.Object({
  accessToken: Type.String(),
  tokenType: Type.Literal('Bearer'),
  expiresIn: Type.Integer({ description: 'Seconds until the token expires' }),
});

export const StaffUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Role,
  branchId: Nullable(Type.Integer(), { description: 'null for a superadmin' }),
  exchangeIds: Type.Array(Type.Integer()),
  permissions: Type.Array(Type.String(), { description: 'Granted permissions (used for operators)' }),
  isActive: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const StaffList = listEnvelope(StaffUser);

export const CreateStaffRequest = Type.Object(
  {
    email: Email,
    password: Password,
    role: Role,
    branchId: Type.Optional(BranchId),
    exchangeIds: Type.Optional(ExchangeIds),
    permissions: Type.Optional(Permissions),
  },
  { additionalProperties: false },
);

export const UpdateStaffRequest = Type.Object(
  {
    role: Type.Optional(Role),
    branchId: Type.Optional(BranchId),
    exchangeIds: Type.Optional(ExchangeIds),
    permissions: Type.Optional(Permissions),
    isActive: Type.Optional(Type.Boolean()),
    password: Type.Optional(Password),
  },
  { additionalProperties: false, minProperties: 1 },
);

export type CreateStaffInput = Static<typeof CreateStaffRequest>;
export type UpdateStaffInput = Static<typeof UpdateStaffRequest>;

/** The caller of GET /auth/me as the service judges it on this request (role and scope are read live). */
export const CurrentStaff = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: StringEnum(['superadmin', 'admin', 'operator']),
  branchId: Nullable(Type.Integer(), { description: 'null for a superadmin, who reaches every branch' }),
  exchangeIds: Nullable(Type.Array(Type.Integer()), {
    description: "An operator's exchanges; null when every exchange of the reach is included",
  }),
  permissions: Type.Array(StringEnum([...ALL_PERMISSIONS]), {
    description: 'Effective permissions: all of them for admins and superadmins',
  }),
});
