import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, Nullable, StringEnum } from '../../http/schemas.js';

const Image = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    path: Type.String({ minLength: 1, maxLength: 2048 }),
  },
  { additionalProperties: false },
);

const fields = {
  ticker: Type.String({ pattern: '^[A-Z0-9]{2,10}$', description: 'Upper-case code, e.g. USD, USDT' }),
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  decimals: Type.Integer({
    minimum: 0,
    maximum: 18,
    description: 'Precision of amounts in this currency (2 for most fiat, 8 for BTC)',
  }),
  kind: Type.Optional(StringEnum(['fiat', 'crypto'])),
  image: Type.Optional(Nullable(Image)),
};

export const CreateCurrencyRequest = Type.Object(fields, { additionalProperties: false });

export const UpdateCurrencyRequest = Type.Object(
  {
    ...fields,
    ticker: Type.Optional(fields.ticker),
    name: Type.Optional(fields.name),
    decimals: Type.Optional(fields.decimals),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AdminCurrency = Type.Object({
  id: Type.Integer(),
  ticker: Type.String(),
  name: Type.String(),
  kind: Type.String(),
  decimals: Type.Integer(),
  image: Nullable(Type.Object({ id: Type.String(), path: Type.String() })),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const AdminCurrencyList = listEnvelope(AdminCurrency);

export type CreateCurrencyInput = Static<typeof CreateCurrencyRequest>;
export type UpdateCurrencyInput = Static<typeof UpdateCurrencyRequest>;
