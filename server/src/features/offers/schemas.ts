import { Type, type Static } from 'typebox';
import type { ListSpec } from '../../http/list-query.js';
import { DateTime, listEnvelope, Money, Nullable, RowId, StringEnum } from '../../http/schemas.js';
import { Offer } from '../catalog/schemas.js';

/**
 * An exact decimal: a JSON number, or a decimal string to pass more digits than a double holds. At most 20
 * integer digits and 18 decimal places (numeric(38,18)). No coercion between the two types happens.
 */
const DecimalInput = (description: string) =>
  Type.Unsafe<number | string>({
    type: ['number', 'string'],
    pattern: '^\\d{1,20}(\\.\\d{1,18})?$',
    description: `${description}; a JSON number or a decimal string such as "0.0000155123456789"`,
  });

const Id = RowId();

/** A decimal that may be negative (a margin below the reference). */
const SignedDecimalInput = (description: string) =>
  Type.Unsafe<number | string>({
    type: ['number', 'string'],
    pattern: '^-?\\d{1,20}(\\.\\d{1,18})?$',
    description: `${description}; a JSON number or a decimal string such as "-1.25"`,
  });

const CurrencyCode = (description: string) =>
  Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9]+$', description });

export const FixedPricing = Type.Object(
  { mode: Type.Literal('fixed', { description: 'The rate is the one staff set' }) },
  { additionalProperties: false },
);

export const SourcePricingInput = Type.Object(
  {
    mode: Type.Literal('source', { description: "The rate is made from a rate source's reference (docs/rates.md)" }),
    sourceId: Id,
    base: CurrencyCode('The currency the reference prices, as the source names it (1 base = reference quote)'),
    quote: CurrencyCode('The currency the reference is in, as the source names it'),
    marginPercent: SignedDecimalInput('rate = reference × (1 + marginPercent/100); above -100 and at most 1000'),
    decimals: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 18,
        description: 'Decimals of the rate, rounded down (default: as many as keep 8 significant digits)',
      }),
    ),
    floor: Type.Optional(DecimalInput('Lowest rate given, whatever the reference says')),
    ceiling: Type.Optional(DecimalInput('Highest rate given, whatever the reference says')),
    maxJumpPercent: Type.Optional(
      DecimalInput('A reference further than this from the last applied one suspends the offer (default: no check)'),
    ),
  },
  { additionalProperties: false },
);

export const PricingInput = Type.Union([FixedPricing, SourcePricingInput], {
  description: 'fixed (the rate in the body) or source (the rate is made from a rate source; no rate in the body)',
});

export const CreateOfferRequest = Type.Object(
  {
    exchangeId: Id,
    currency1Id: Id,
    currency2Id: Id,
    rate: Type.Optional(
      DecimalInput(
        'Units of currency2 given for one unit of currency1; greater than 0; required unless priced from a source',
      ),
    ),
    minAmount: Type.Optional(DecimalInput('Smallest currency1 amount (default 0)')),
    maxAmount: DecimalInput('Largest currency1 amount; greater than 0 and not below minAmount'),
    isActive: Type.Optional(Type.Boolean({ default: true })),
    pricing: Type.Optional(PricingInput),
  },
  { additionalProperties: false },
);

export const UpdateOfferRequest = Type.Object(
  {
    rate: CreateOfferRequest.properties.rate,
    minAmount: Type.Optional(DecimalInput('Smallest currency1 amount')),
    maxAmount: Type.Optional(CreateOfferRequest.properties.maxAmount),
    isActive: Type.Optional(Type.Boolean()),
    pricing: Type.Optional(PricingInput),
  },
  { additionalProperties: false, minProperties: 1 },
);

export type PricingInputDto = Static<typeof PricingInput>;
export type SourcePricingDto = Static<typeof SourcePricingInput>;

const SourcePricing = Type.Object({
  mode: Type.Literal('source'),
  sourceId: Type.Integer(),
  base: Type.String(),
  quote: Type.String(),
  marginPercent: Money,
  decimals: Nullable(Type.Integer(), { description: 'null: as many as keep 8 significant digits' }),
  floor: Nullable(Money),
  ceiling: Nullable(Money),
  maxJumpPercent: Nullable(Money),
});

/** An offer as the back office sees it: the partner shape, with how its rate is made and whether it is suspended. */
export const AdminOffer = Type.Object({
  ...Offer.properties,
  pricing: Type.Union([Type.Object({ mode: Type.Literal('fixed') }), SourcePricing]),
  pricingState: StringEnum(['active', 'suspended'], {
    description: 'suspended: not offered to partners until a sane reference arrives or staff resume it',
  }),
  suspendedReason: Nullable(StringEnum(['stale', 'jump'])),
  referenceRate: Nullable(Money, { description: 'The reference the current rate was made from (source pricing)' }),
  referenceAt: Nullable(DateTime),
});

export const AdminOfferList = listEnvelope(AdminOffer);

export const RateHistoryQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Start (default: 7 days before `to`)' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'End (default: now)' })),
  },
  { additionalProperties: false },
);

export const RATE_HISTORY_LIMIT = 2000;

export const RateHistory = Type.Object({
  data: Type.Array(
    Type.Object({
      at: DateTime,
      rate: Money,
      referenceRate: Nullable(Money),
    }),
    { description: `Applied rates in time order: the last ${RATE_HISTORY_LIMIT} of the range at most` },
  ),
  truncated: Type.Boolean({ description: `True when the range held more than ${RATE_HISTORY_LIMIT} rates` }),
});

export type CreateOfferInput = Static<typeof CreateOfferRequest>;
export type UpdateOfferInput = Static<typeof UpdateOfferRequest>;

/** The offers list's filters and sorts, the same in the partner API and the back office. */
export const OFFER_LIST: ListSpec = {
  filters: {
    isActive: { type: 'boolean' },
    exchangeId: { type: 'integer' },
    currency1Id: { type: 'integer' },
    currency2Id: { type: 'integer' },
  },
  sorts: ['id', 'rate', 'minAmount', 'maxAmount', 'exchangeId', 'currency1Id', 'currency2Id', 'createdAt', 'updatedAt'],
};
