import { Type } from 'typebox';
import type { WebhookEvent } from '../../db/schema.js';
import { DateTime, listEnvelope, Nullable } from '../../http/schemas.js';

export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  'order.created',
  'order.status_changed',
  'order.cancelled',
  'offer.updated',
];

export const EventName = Type.Unsafe<WebhookEvent>({ type: 'string', enum: [...WEBHOOK_EVENTS] });
// The URL's rules (http/https, no credentials, no bad port, no internal address) are checked in code, with the contract's message.
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'http or https URL that receives the deliveries: a public address, no credentials, not a port the Fetch Standard calls bad (25, 587, 6667, …)',
});
const Events = Type.Array(EventName, {
  minItems: 1,
  maxItems: WEBHOOK_EVENTS.length,
  uniqueItems: true,
  description: 'Events to receive',
});

export const CreateWebhook = Type.Object(
  { url: Url, events: Events },
  {
    additionalProperties: false,
    examples: [{ url: 'https://partner.example.com/pxs/webhooks', events: ['order.created', 'order.status_changed'] }],
  },
);
export const UpdateWebhook = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events) },
  { additionalProperties: false, minProperties: 1 },
);

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
  secretKey: Type.String({
    description: 'HMAC-SHA256 signing secret (64 hex characters); shown only in this response',
  }),
  note: Type.String(),
});

export const RotateSecretRequest = Type.Object(
  {
    overlapSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604800,
        description:
          'How long the replaced secret keeps signing beside the new one (0 to 7 days; default 86400, 24 hours). 0 stops it at once',
      }),
    ),
  },
  { additionalProperties: false, description: 'Optional: an empty or absent body keeps the old secret for 24 hours' },
);

export const RotatedWebhook = Type.Object({
  ...webhookFields,
  secretKey: Type.String({
    description: 'The new HMAC-SHA256 signing secret (64 hex characters); shown only in this response',
  }),
  previousSecretExpiresAt: Nullable(DateTime, {
    description:
      'Until then deliveries also carry a webhook-signature made with the replaced secret; null when overlapSeconds was 0',
  }),
  note: Type.String(),
});

export const AdminWebhook = Type.Object({
  ...webhookFields,
  branchId: Nullable(Type.Integer()),
  staffUserId: Nullable(Type.Integer(), { description: "Owner of a personal key's webhook; null for a branch key's" }),
  deactivatedAt: Nullable(DateTime),
});

export const WebhookList = listEnvelope(Webhook);
export const ListedAdminWebhook = Type.Object({
  ...AdminWebhook.properties,
  staffEmail: Nullable(Type.String(), {
    description: "The owner's login, so the list names them; null for a branch key's webhook",
  }),
});
export const AdminWebhookList = listEnvelope(ListedAdminWebhook);

export const WebhookParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ format: 'uuid' }),
  deliveryId: Type.String({ format: 'uuid' }),
});
