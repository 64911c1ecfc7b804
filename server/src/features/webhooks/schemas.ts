import { Type } from 'typebox';
import type { WebhookEvent } from '../../db/schema.js';
import { DateTime, listEnvelope, Nullable, StringEnum } from '../../http/schemas.js';

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['order.created', 'order.status_changed', 'order.cancelled', 'offer.updated'];
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const;

const EventName = Type.Unsafe<WebhookEvent>({ type: 'string', enum: [...WEBHOOK_EVENTS] });
// The URL's rules (http/https, no credentials, no internal address) are checked in code, with the contract's message.
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'http or https URL that receives the deliveries' });
const Events = Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, description: 'Events to receive' });

export const CreateWebhook = Type.Object({ url: Url, events: Events }, { additionalProperties: false });
export const UpdateWebhook = Type.Object({ url: Type.Optional(Url), events: Type.Optional(Events) }, { additionalProperties: false, minProperties: 1 });

const webhookFields = {
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  events: Type.Array(EventName),
  isActive: Type.Boolean(),
  failCount: Type.Integer({ description: 'Consecutive failed attempts; 0 after any success' }),
  createdAt: DateTime,
  updatedAt: DateTime,
};

export const Webhook = Type.Object(webhookFields);

export const WebhookWithSecret = Type.Object({
  ...webhookFields,
  secretKey: Type.String({ description: 'HMAC-SHA256 signing secret (64 hex characters); shown only in this response' }),
  note: Type.String(),
});

export const AdminWebhook = Type.Object({
  ...webhookFields,
  branchId: Nullable(Type.Integer()),
  staffUserId: Nullable(Type.Integer(), { description: 'Owner of a personal key\'s webhook; null for a branch key\'s' }),
  deactivatedAt: Nullable(DateTime),
});

export const WebhookList = listEnvelope(Webhook);
export const AdminWebhookList = listEnvelope(AdminWebhook);

const deliveryFields = {
  id: Type.String({ format: 'uuid', description: 'Also the X-Webhook-Delivery and webhook-id header of every attempt' }),
  event: EventName,
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
  attemptLog: Type.Array(Type.Object({
    attempt: Type.Integer(),
    startedAt: DateTime,
    durationMs: Type.Integer(),
    responseStatus: Nullable(Type.Integer()),
    responseBody: Nullable(Type.String({ description: 'First 1 KB of the answer' })),
    error: Nullable(Type.String()),
  })),
});

export const WebhookParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const DeliveryParams = Type.Object({ id: Type.String({ format: 'uuid' }), deliveryId: Type.String({ format: 'uuid' }) });
