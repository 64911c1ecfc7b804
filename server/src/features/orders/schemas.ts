import { Type, type Static } from 'typebox';
import { DateTime, EntityRef, listEnvelope, Money, Nullable, StringEnum } from '../../http/schemas.js';
import { AMOUNT_BOUND } from '../pricing/decimal.js';

const Status = StringEnum(['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL'], {
  description: 'Order status',
});
const OperationType = StringEnum(['offer', 'finop'], {
  description: "`offer`: priced by the cashbox's active offer; `finop`: a financial operation priced by the office",
});
const Amount = (description: string) =>
  Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: AMOUNT_BOUND, description });
const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });

export const CreateOrderRequest = Type.Object(
  {
    cashbox: EntityRef,
    currency1: EntityRef,
    currency2: EntityRef,
    operationType: OperationType,
    quoteId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'A firm quote (POST /partner/public/quotes) for this cashbox and pair: the order is priced at its figures, and neither amount is given. `offer` orders only',
      }),
    ),
    clientAmount: Type.Optional(
      Amount(
        'Amount the client provides, in currency1. For `offer`: give exactly one of the two amounts (or a quoteId); for `finop`: both',
      ),
    ),
    exchangeAmount: Type.Optional(
      Amount(
        'Amount the exchange provides, in currency2. For `offer`: give exactly one of the two amounts; for `finop`: both',
      ),
    ),
    paymentMethodSource: Type.Optional(EntityRef),
    paymentMethodDest: Type.Optional(EntityRef),
    user: Type.Optional(EntityRef),
    comment: Type.Optional(Text(2000, 'Internal note')),
    clientComment: Type.Optional(Text(2000, 'Client note')),
    userWallet: Type.Optional(Text(200, 'Client wallet address')),
    tgNickName: Type.Optional(Text(100, 'Client Telegram nickname')),
  },
  {
    additionalProperties: false,
    examples: [
      {
        cashbox: { id: 1 },
        currency1: { id: 2 },
        currency2: { id: 1 },
        operationType: 'offer',
        clientAmount: 100,
        user: { id: 7 },
      },
    ],
  },
);

const CurrencyRef = Type.Object({ id: Type.Integer(), code: Type.String() });
const Ref = Type.Object({ id: Type.Integer() });
const NullableRef = Nullable(Ref);
const NullableText = Nullable(Type.String());

export const Order = Type.Object(
  {
    id: Type.Integer(),
    hashedId: Type.String({ description: 'Random, non-sequential public identifier' }),
    status: Status,
    clientAmount: Money,
    exchangeAmount: Money,
    currency1: CurrencyRef,
    currency2: CurrencyRef,
    cashbox: Ref,
    user: NullableRef,
    comment: NullableText,
    clientComment: NullableText,
    operationType: OperationType,
    paymentMethodSource: NullableRef,
    paymentMethodDest: NullableRef,
    userWallet: NullableText,
    tgNickName: NullableText,
    offer: Nullable(Ref, { description: 'The offer that priced the order; null for finop' }),
    // Absent rather than null for finop: a number-or-null cannot serialize an exact decimal string.
    rate: Type.Optional(
      Type.Unsafe<number | string>(
        Type.Number({ description: "The offer's rate as stored when the order was priced; absent for finop" }),
      ),
    ),
    sandbox: Type.Boolean({
      description: 'true for an order placed in a sandbox branch (a test order the partner may move itself)',
    }),
    expiresAt: Nullable(DateTime, {
      description:
        "When the order's payment window runs out: unless the client has paid by then (the order has reached " +
        'EXCHANGEPAYMENTWAIT), the system cancels it, within a few seconds. Set while the order is ORDERINIT or ' +
        'CLIENTPAYMENTWAIT; null once it has moved on, and for an exchange whose orders never expire',
    }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    examples: [
      {
        id: 42,
        hashedId: 'k3J9xQ2mP0aZ',
        status: 'ORDERINIT',
        sandbox: false,
        clientAmount: 100,
        exchangeAmount: 91.5,
        currency1: { id: 2, code: 'USD' },
        currency2: { id: 1, code: 'EUR' },
        cashbox: { id: 1 },
        user: { id: 7 },
        comment: null,
        clientComment: null,
        operationType: 'offer',
        paymentMethodSource: null,
        paymentMethodDest: null,
        userWallet: null,
        tgNickName: null,
        offer: { id: 3 },
        rate: 0.915,
        expiresAt: '2026-01-15T11:00:00.000Z',
        createdAt: '2026-01-15T10:00:00.000Z',
        updatedAt: '2026-01-15T10:00:00.000Z',
      },
    ],
  },
);

export const OrderList = listEnvelope(Order);

export const HistoryEntry = Type.Object({
  fromStatus: Nullable(Status),
  toStatus: Status,
  actor: Type.Object({
    type: StringEnum(['api_key', 'staff', 'system']),
    apiKeyId: Nullable(Type.String({ format: 'uuid' })),
    staffUserId: Nullable(Type.Integer()),
    staffEmail: Nullable(Type.String(), {
      description:
        'Who the staff user is (their login), so the history names them; null when no staff user was involved',
    }),
  }),
  comment: NullableText,
  createdAt: DateTime,
});

/** Staff only: partners never see what the house's rate was made from. */
const ReferenceRate = Nullable(Money, {
  description:
    'The market reference the offer rate was made from when the order was priced; null for fixed-rate offers',
});

export const OrderDetail = Type.Object({
  ...Order.properties,
  branchId: Type.Integer(),
  referenceRate: ReferenceRate,
  history: Type.Array(HistoryEntry),
});
export const AdminOrder = Type.Object({ ...Order.properties, branchId: Type.Integer(), referenceRate: ReferenceRate });
/** Who the client is, for a staff user who may read clients (clients:read); null otherwise or without a client. */
export const ClientSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.String(),
});
export const ListedAdminOrder = Type.Object({ ...AdminOrder.properties, client: Nullable(ClientSummary) });
export const AdminOrderList = listEnvelope(ListedAdminOrder);

export const StatusChangeRequest = Type.Object(
  {
    status: Status,
    comment: Type.Optional(Text(2000, 'Why the order moved; kept in the status history')),
  },
  { additionalProperties: false },
);

export type CreateOrderBody = Static<typeof CreateOrderRequest>;

/** The counter's search: an order id, hashed id, or part of a client's details. */
export const OrderSearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    description: "An order id (42 or #42), a hashed id, or part of a client's name, email or phone",
  }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
});

export const OrderSearchResult = Type.Object({ data: Type.Array(ListedAdminOrder) });
