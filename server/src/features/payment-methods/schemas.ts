import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, Nullable, RowId, StringEnum } from '../../http/schemas.js';

const KINDS = ['cash', 'card', 'bank_transfer', 'crypto', 'other'] as const;
const Id = (description: string) => RowId({ description });

export const CreatePaymentMethodRequest = Type.Object(
  {
    branchId: Type.Optional(Id("Required for a superadmin; an admin's own branch otherwise")),
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    kind: Type.Optional(StringEnum([...KINDS], { default: 'cash' })),
    exchangeId: Type.Optional(Id('Only at this exchange office; every office of the branch when left out')),
    currencyId: Type.Optional(Id('Only for this currency; any currency when left out')),
    isActive: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

/** What a branch admin may change later; where a method applies stays fixed, since orders already refer to it. */
export const UpdatePaymentMethodRequest = Type.Object(
  {
    name: Type.Optional(CreatePaymentMethodRequest.properties.name),
    kind: Type.Optional(StringEnum([...KINDS])),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const PaymentMethod = Type.Object({
  id: Type.Integer(),
  branchId: Type.Integer(),
  name: Type.String(),
  kind: Type.String(),
  exchangeId: Nullable(Type.Integer()),
  currencyId: Nullable(Type.Integer()),
  isActive: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const PaymentMethodList = listEnvelope(PaymentMethod);
export const PAYMENT_METHOD_KINDS: readonly string[] = KINDS;
export type PaymentMethodKind = (typeof KINDS)[number];
export type CreatePaymentMethodInput = Static<typeof CreatePaymentMethodRequest>;
export type UpdatePaymentMethodInput = Static<typeof UpdatePaymentMethodRequest>;
