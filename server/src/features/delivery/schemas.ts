import { Type } from 'typebox';
import { DateTime, listEnvelope, Nullable, StringEnum } from '../../http/schemas.js';
import { EventName } from '../webhooks/schemas.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const;

const deliveryFields = {
  id: Type.String({
    format: 'uuid',
    description: 'Also the X-Webhook-Delivery and webhook-id header of every attempt',
  }),
  event: EventName,
  subjectId: Nullable(Type.Integer(), {
    description: 'The id of the order (order.* events) or offer (offer.updated) the event is about',
  }),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Type.Integer(),
  lastResponseStatus: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  nextAttemptAt: Nullable(DateTime, { description: 'When the next attempt is due; null unless pending' }),
  deliveredAt: Nullable(DateTime),
  createdAt: DateTime,
  updatedAt: DateTime,
};

export const Delivery = Type.Object(deliveryFields);
export const DeliveryList = listEnvelope(Delivery);

export const DeliveryDetail = Type.Object({
  ...deliveryFields,
  payload: Type.Record(Type.String(), Type.Unknown(), { description: 'The envelope exactly as sent, parsed' }),
  attemptLog: Type.Array(
    Type.Object({
      attempt: Type.Integer(),
      startedAt: DateTime,
      durationMs: Type.Integer(),
      responseStatus: Nullable(Type.Integer()),
      responseBody: Nullable(Type.String({ description: 'First 1 KB of the answer' })),
      error: Nullable(Type.String()),
    }),
  ),
});
