import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, Nullable, RowId, StringEnum } from '../../http/schemas.js';

export const RATE_SOURCE_KINDS = ['ecb', 'cbr', 'binance', 'json'] as const;
export type RateSourceKind = (typeof RATE_SOURCE_KINDS)[number];

const KIND_DESCRIPTION =
  "The document's format: ecb (the ECB's eurofxref-daily.xml), cbr (the Bank of Russia's XML_daily.asp), " +
  'binance (/api/v3/ticker/price), json ({"rates": {"USD/RUB": "91.55"}})';

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  kind: StringEnum(RATE_SOURCE_KINDS, { description: KIND_DESCRIPTION }),
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'http or https, no credentials; refused when it resolves to an internal address, as a webhook URL is',
  }),
  // No `default` on the schema: the body validator fills defaults in, and a PATCH without the field must leave it.
  intervalSeconds: Type.Integer({
    minimum: 1,
    maximum: 86400,
    description: 'Seconds between two reads of the source, 1–86400; 60 when a new source gives none',
  }),
  maxAgeSeconds: Type.Integer({
    minimum: 1,
    maximum: 31_536_000,
    description:
      'After this many seconds without a successful read the source is stale (offers priced from it are suspended); 300 when a new source gives none',
  }),
};

export const CreateRateSourceRequest = Type.Object(
  {
    branchId: Type.Optional(RowId({ description: "Required for a superadmin; an admin's own branch otherwise" })),
    name: fields.name,
    kind: fields.kind,
    url: fields.url,
    intervalSeconds: Type.Optional(fields.intervalSeconds),
    maxAgeSeconds: Type.Optional(fields.maxAgeSeconds),
  },
  { additionalProperties: false },
);

export const UpdateRateSourceRequest = Type.Object(
  {
    name: Type.Optional(fields.name),
    kind: Type.Optional(fields.kind),
    url: Type.Optional(fields.url),
    intervalSeconds: Type.Optional(fields.intervalSeconds),
    maxAgeSeconds: Type.Optional(fields.maxAgeSeconds),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const QuotedPair = Type.Object({
  pair: Type.String({ description: 'BASE/QUOTE, e.g. USD/RUB' }),
  base: Type.String(),
  quote: Type.String(),
  rate: Type.String({ description: '1 BASE = rate QUOTE, an exact decimal string as published' }),
});

export const AdminRateSource = Type.Object({
  id: Type.Integer(),
  branchId: Type.Integer(),
  name: Type.String(),
  kind: StringEnum(RATE_SOURCE_KINDS),
  url: Type.String(),
  intervalSeconds: Type.Integer(),
  maxAgeSeconds: Type.Integer(),
  lastSuccessAt: Nullable(DateTime, { description: 'When the source was last read and understood' }),
  lastError: Nullable(Type.String(), {
    description: 'Why the last read failed (null once a read succeeds): the fault, with the host but never the query',
  }),
  lastErrorAt: Nullable(DateTime),
  isStale: Type.Boolean({
    description: 'No successful read for maxAgeSeconds (counted from the creation while there has been none)',
  }),
  nextPollAt: DateTime,
  pairs: Type.Array(QuotedPair, { description: 'The pairs last read, by pair' }),
  offers: Type.Integer({ description: 'Offers priced from this source' }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const AdminRateSourceList = listEnvelope(AdminRateSource);

export type CreateRateSourceInput = Static<typeof CreateRateSourceRequest>;
export type UpdateRateSourceInput = Static<typeof UpdateRateSourceRequest>;
