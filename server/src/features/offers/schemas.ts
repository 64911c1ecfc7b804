import { Type, type Static } from 'typebox';
import type { ListSpec } from '../../http/list-query.js';
import { RowId } from '../../http/schemas.js';

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

export const CreateOfferRequest = Type.Object(
  {
    exchangeId: Id,
    currency1Id: Id,
    currency2Id: Id,
    rate: DecimalInput('Units of currency2 given for one unit of currency1; greater than 0'),
    minAmount: Type.Optional(DecimalInput('Smallest currency1 amount (default 0)')),
    maxAmount: DecimalInput('Largest currency1 amount; greater than 0 and not below minAmount'),
    isActive: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);

export const UpdateOfferRequest = Type.Object(
  {
    rate: Type.Optional(CreateOfferRequest.properties.rate),
    minAmount: Type.Optional(DecimalInput('Smallest currency1 amount')),
    maxAmount: Type.Optional(CreateOfferRequest.properties.maxAmount),
    isActive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

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
