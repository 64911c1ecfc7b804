import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, Money, Nullable, RowId, StringEnum } from '../../http/schemas.js';
import { AMOUNT_BOUND } from '../pricing/decimal.js';

const HHMM = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, local time of the exchange' });

export const ScheduleDay = Type.Object({
  dayOfWeek: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO day of week: 1 = Monday … 7 = Sunday' }),
  openTime: HHMM,
  closeTime: HHMM,
  isClosed: Type.Boolean(),
});

export const Location = Type.Object({ latitude: Type.Number(), longitude: Type.Number() });

export const PublicExchange = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  exchangeActive: Type.Boolean(),
  contacts: Type.Object({
    address: Type.String(),
    phoneNumber: Type.String(),
    chat: Type.String({ description: "Link to the exchange's chat" }),
    location: Nullable(Location),
  }),
  schedule: Type.Array(ScheduleDay),
  timezone: Type.String({
    description: "IANA time zone of the schedule's hours, e.g. Europe/Lisbon (an addition to the contract)",
  }),
});

export const Exchange = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  city: Type.String(),
  isActive: Type.Boolean(),
  schedule: Type.Object({
    timezone: Type.String({ description: 'IANA time zone of the opening hours' }),
    days: Type.Array(ScheduleDay),
  }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const PublicCurrency = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  ticker: Type.String(),
  image: Nullable(Type.Object({ id: Type.String({ format: 'uuid' }), path: Type.String() })),
});

/** What one order can receive, never the exchange's balance (docs/cash.md). */
const Reserve = Type.Unsafe<number | string>(
  Type.Number({
    description:
      "What one order can receive, in the destination currency: maxAmount × rate, or the exchange's available cash " +
      "of the destination currency when it tracks it and that is smaller; rounded down to the currency's decimals",
  }),
);

export const PublicRate = Type.Object({
  offerId: Type.Integer(),
  exchangeId: Type.Integer(),
  sourceCurrency: Type.Object({ id: Type.Integer(), ticker: Type.String() }),
  destCurrency: Type.Object({ id: Type.Integer(), ticker: Type.String() }),
  rate: Money,
  minAmount: Money,
  maxAmount: Money,
  reserve: Reserve,
  updatedAt: DateTime,
});

export const RatesQuery = Type.Object(
  {
    exchangeId: Type.Optional(RowId()),
    sourceCurrencyId: Type.Optional(RowId()),
    destCurrencyId: Type.Optional(RowId()),
  },
  { additionalProperties: false },
);

const CurrencyRef = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });

export const Offer = Type.Object({
  id: Type.Integer(),
  currency1: CurrencyRef,
  currency2: CurrencyRef,
  rate: Money,
  minAmount: Money,
  maxAmount: Money,
  isActive: Type.Boolean(),
  exchange: Type.Object({ id: Type.Integer() }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const OfferList = listEnvelope(Offer);

/** An offer as partners list it: the back office's, with its reserve (a property of its own, after maxAmount). */
export const PartnerOffer = Type.Object({
  id: Offer.properties.id,
  currency1: CurrencyRef,
  currency2: CurrencyRef,
  rate: Money,
  minAmount: Money,
  maxAmount: Money,
  reserve: Reserve,
  isActive: Type.Boolean(),
  exchange: Type.Object({ id: Type.Integer() }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const PartnerOfferList = listEnvelope(PartnerOffer);

export const EstimateRequest = Type.Object(
  {
    exchangeId: RowId(),
    sourceCurrencyId: RowId(),
    destCurrencyId: RowId(),
    amount: Type.Number({
      exclusiveMinimum: 0,
      exclusiveMaximum: AMOUNT_BOUND,
      description: 'Amount in the currency named by direction',
    }),
    direction: Type.Optional(StringEnum(['source', 'dest'], { default: 'source' })),
  },
  {
    additionalProperties: false,
    examples: [{ exchangeId: 1, sourceCurrencyId: 2, destCurrencyId: 1, amount: 100, direction: 'source' }],
  },
);

export const EstimateResult = Type.Object(
  {
    sourceAmount: Money,
    destAmount: Money,
    rate: Money,
    isReverse: Type.Boolean(),
    sourceCurrency: PublicCurrency,
    destCurrency: PublicCurrency,
    exchangeId: Type.Integer(),
    offerId: Type.Integer(),
  },
  {
    examples: [
      {
        sourceAmount: 100,
        destAmount: 91.5,
        rate: 0.915,
        isReverse: false,
        exchangeId: 1,
        offerId: 3,
        sourceCurrency: { id: 2, name: 'US Dollar', ticker: 'USD', image: null },
        destCurrency: { id: 1, name: 'Euro', ticker: 'EUR', image: null },
      },
    ],
  },
);

export type PublicExchangeDto = Static<typeof PublicExchange>;
export type PublicCurrencyDto = Static<typeof PublicCurrency>;
export type EstimateRequestDto = Static<typeof EstimateRequest>;
