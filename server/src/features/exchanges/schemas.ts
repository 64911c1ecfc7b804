import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, Nullable, RowId } from '../../http/schemas.js';

const HHMM = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, local time of the exchange' });
const Text = (maxLength: number) => Type.String({ maxLength });
const PHONE = '^(\\+?\\(?\\d[\\d ().-]{3,48})?$';

const ScheduleDayInput = Type.Object(
  {
    dayOfWeek: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO day of week: 1 = Monday … 7 = Sunday' }),
    openTime: Type.Optional(HHMM),
    closeTime: Type.Optional(HHMM),
    isClosed: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

const LocationInput = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
  },
  { additionalProperties: false },
);

const ContactsInput = Type.Object(
  {
    phoneNumber: Type.Optional(
      Type.String({
        maxLength: 50,
        pattern: PHONE,
        description: 'As shown to clients: digits, spaces, brackets, dots and hyphens, optionally after +; or empty',
      }),
    ),
    chat: Type.Optional(
      Type.String({
        maxLength: 2048,
        pattern: '^(https?://\\S+)?$',
        description: "Link to the exchange's chat (http or https), or empty",
      }),
    ),
  },
  { additionalProperties: false },
);

/** A week: an order that waits longer for its payment is one nobody is watching. */
export const MAX_PAYMENT_WINDOW_SECONDS = 7 * 24 * 3600;
const PAYMENT_WINDOW_DESCRIPTION =
  "Seconds an order placed at this exchange waits for the client's payment (while ORDERINIT or CLIENTPAYMENTWAIT) " +
  'before the system cancels it; 0: its orders never expire. A change applies to orders placed after it.';

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  address: Type.Optional(Text(500)),
  city: Type.Optional(Text(200)),
  contacts: Type.Optional(ContactsInput),
  location: Type.Optional(Nullable(LocationInput)),
  timezone: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone of the opening hours, e.g. Europe/Lisbon',
    }),
  ),
  schedule: Type.Optional(
    Type.Array(ScheduleDayInput, { maxItems: 7, description: 'The whole week; days left out have no opening hours' }),
  ),
  isActive: Type.Optional(Type.Boolean()),
  paymentWindowSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_PAYMENT_WINDOW_SECONDS,
      // No `default`: the body validator fills defaults in, and a PATCH without the field must leave it alone.
      description: `${PAYMENT_WINDOW_DESCRIPTION} 3600 (an hour) when a new exchange gives none; at most 604800 (7 days).`,
    }),
  ),
};

export const CreateExchangeRequest = Type.Object(
  {
    branchId: Type.Optional(RowId({ description: "Required for a superadmin; an admin's own branch otherwise" })),
    ...fields,
  },
  { additionalProperties: false },
);

export const UpdateExchangeRequest = Type.Object(
  { ...fields, name: Type.Optional(fields.name) },
  { additionalProperties: false, minProperties: 1 },
);

const Time = Nullable(Type.String());

export const AdminExchange = Type.Object({
  id: Type.Integer(),
  branchId: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  city: Type.String(),
  contacts: Type.Object({ phoneNumber: Type.String(), chat: Type.String() }),
  location: Nullable(Type.Object({ latitude: Type.Number(), longitude: Type.Number() })),
  timezone: Type.String(),
  schedule: Type.Array(
    Type.Object({ dayOfWeek: Type.Integer(), openTime: Time, closeTime: Time, isClosed: Type.Boolean() }),
  ),
  isActive: Type.Boolean(),
  paymentWindowSeconds: Type.Integer({ minimum: 0, description: PAYMENT_WINDOW_DESCRIPTION }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const AdminExchangeList = listEnvelope(AdminExchange);

export type CreateExchangeInput = Static<typeof CreateExchangeRequest>;
export type UpdateExchangeInput = Static<typeof UpdateExchangeRequest>;
export type ScheduleDayInputDto = Static<typeof ScheduleDayInput>;
