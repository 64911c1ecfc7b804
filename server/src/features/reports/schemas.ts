import { Type, type Static } from 'typebox';
import { Money, Nullable, RowId, StringEnum } from '../../http/schemas.js';

export const GROUP_BY = ['day', 'exchange', 'currency', 'staff'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** The longest report, from and to included: a year, leap day and all. */
export const MAX_DAYS = 366;

const DateOnly = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: `${description} (YYYY-MM-DD, included)` });

export const TurnoverQuery = Type.Object(
  {
    from: DateOnly('First day'),
    to: DateOnly(`Last day; at most ${MAX_DAYS} days after from, counting both`),
    groupBy: StringEnum(GROUP_BY, {
      description: 'One row per currency and day, exchange, staff user, or per currency',
    }),
    exchangeId: Type.Optional(RowId({ description: 'Only this exchange' })),
    tz: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'IANA time zone whose days are counted (e.g. Asia/Kathmandu); UTC when left out',
      }),
    ),
    format: Type.Optional(
      StringEnum(['json', 'csv'] as const, { description: 'csv: the same rows as text/csv (as `Accept: text/csv`)' }),
    ),
  },
  { additionalProperties: false },
);
export type TurnoverQuery = Static<typeof TurnoverQuery>;

const Signed = (description: string) => Type.Unsafe<number | string>(Type.Number({ description }));

export const TurnoverRow = Type.Object({
  period: Type.Optional(Type.String({ description: 'groupBy=day: the day, YYYY-MM-DD, in tz' })),
  exchangeId: Type.Optional(Type.Integer({ description: 'groupBy=exchange' })),
  staff: Type.Optional(
    Nullable(
      Type.Object({ id: Type.Integer(), email: Nullable(Type.String(), { description: 'null once deleted' }) }),
      {
        description:
          'groupBy=staff: the cashier of a counter order, else the staff user who settled it; null when an API key or ' +
          'the system settled it',
      },
    ),
  ),
  currency: Type.Object({ id: Type.Integer(), ticker: Type.String() }),
  received: Money,
  paidOut: Money,
  orders: Type.Integer({ description: 'Settled orders with this currency on either side' }),
  income: Signed('The spread earned against the reference rate, in this currency; negative when paid out above it'),
});
export type TurnoverRow = Static<typeof TurnoverRow>;

export const TurnoverReport = Type.Object({
  from: Type.String(),
  to: Type.String(),
  tz: Type.String(),
  groupBy: StringEnum(GROUP_BY),
  data: Type.Array(TurnoverRow),
});

/** The home page's part: today's figures per currency. */
export const TodayTurnover = Type.Array(
  Type.Object({
    currency: Type.Object({ id: Type.Integer(), ticker: Type.String() }),
    received: Money,
    paidOut: Money,
    orders: Type.Integer(),
    income: Signed('Spread earned against the reference rate'),
  }),
);
