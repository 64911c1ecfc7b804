import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, Money, Nullable, RowId, StringEnum } from '../../http/schemas.js';

const DecimalInput = (description: string) =>
  Type.Unsafe<number | string>({
    type: ['number', 'string'],
    pattern: '^\\d{1,20}(\\.\\d{1,18})?$',
    description: `${description}; a JSON number or a decimal string such as "1250.50"`,
  });

const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'Why; kept in the ledger and the audit log' });

export const CashParams = Type.Object({ id: RowId(), currencyId: RowId() });

export const CashPosition = Type.Object({
  currency: Type.Object({ id: Type.Integer(), ticker: Type.String() }),
  balance: Money,
  held: Money,
  available: Money,
  lowWatermark: Money,
  updatedAt: DateTime,
});

export const CashPositionList = Type.Object({ data: Type.Array(CashPosition) });

export const MOVEMENT_KINDS = ['deposit', 'withdrawal', 'count', 'transferIn', 'transferOut', 'orderSettled'] as const;

export const CashMovement = Type.Object({
  id: Type.Integer(),
  kind: StringEnum(MOVEMENT_KINDS),
  amount: Type.Unsafe<number | string>(Type.Number({ description: 'Signed: what the movement added to the balance' })),
  balanceAfter: Money,
  orderId: Nullable(Type.Integer()),
  staffId: Nullable(Type.Integer()),
  reason: Nullable(Type.String()),
  createdAt: DateTime,
});

export const CashMovementList = listEnvelope(CashMovement);

export const CreateMovementRequest = Type.Object(
  {
    kind: StringEnum(['deposit', 'withdrawal', 'count'] as const, {
      description: 'count: amount is the cash counted, and the ledger records the difference',
    }),
    amount: DecimalInput('Positive amount of the currency (for count: the counted cash, 0 or more)'),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);

export const MovementCreated = Type.Object({ movement: CashMovement, position: CashPosition });

export const TransferRequest = Type.Object(
  {
    fromExchangeId: RowId(),
    toExchangeId: RowId(),
    currencyId: RowId(),
    amount: DecimalInput('Positive amount to move'),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);

export const TransferCreated = Type.Object({ from: MovementCreated, to: MovementCreated });

export const UpdatePositionRequest = Type.Object(
  { lowWatermark: DecimalInput('Available below this is shown as low (0: never)') },
  { additionalProperties: false },
);

export type CreateMovementBody = Static<typeof CreateMovementRequest>;
export type TransferBody = Static<typeof TransferRequest>;
