import { Type } from 'typebox';

/** The optional header of the creating routes; documented in the OpenAPI document and checked by the validator. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7e]+$',
      description:
        'Makes the request safe to retry: a repeat with the same key and body gets the first answer (header `Idempotent-Replayed: true`) instead of creating again; the same key with another body gets 422, a repeat while the first is still running 409. Scoped to the caller: the API key on partner routes, the staff user on back-office ones; kept 24 hours.',
    }),
  ),
});
