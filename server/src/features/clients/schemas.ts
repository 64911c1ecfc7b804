import { Type, type Static } from 'typebox';
import { DateTime, listEnvelope, RowId } from '../../http/schemas.js';

// Lengths and formats are checked after trimming in rules.ts, so the schema only bounds the raw input.
const Name = (what: string) =>
  Type.String({
    maxLength: 1000,
    description: `${what}: 1–100 characters after trimming, no control or bidirectional formatting characters; stored trimmed`,
  });
const Email = Type.String({
  maxLength: 1000,
  description: 'A valid email address, stored lower-case; unique within the branch',
});
const Phone = Type.String({ maxLength: 100, description: 'E.164: + then 7 to 15 digits, e.g. +351912345678' });

export const CreateClientRequest = Type.Object(
  {
    firstName: Name('First name'),
    lastName: Name('Last name'),
    email: Email,
    phone: Phone,
    branchId: Type.Optional(
      RowId({
        description:
          "Only for a key that reaches every branch (a superadmin's personal key), which must name the client's branch",
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+441234567890' }],
  },
);

export const UpdateClientRequest = Type.Object(
  {
    firstName: Type.Optional(Name('First name')),
    lastName: Type.Optional(Name('Last name')),
    email: Type.Optional(Email),
    phone: Type.Optional(Phone),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Client = Type.Object({
  id: Type.Integer(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  phone: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const ClientList = listEnvelope(Client);

export type CreateClientBody = Static<typeof CreateClientRequest>;
export type UpdateClientBody = Static<typeof UpdateClientRequest>;
