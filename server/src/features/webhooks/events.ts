import { Type, type TSchema } from 'typebox';
import { Nullable, StringEnum } from '../../http/schemas.js';

/*
 * The bodies the delivery worker POSTs, as named schemas: the OpenAPI document describes them under `webhooks`
 * (OpenAPI 3.1), so generated types give receivers a union discriminated by `event`. The bodies are built in
 * delivery/outbox.ts (the envelope), orders/service.ts and catalog/offers/service.ts (the data).
 * sdk/test/webhook-events.test.ts checks real deliveries of each event against these shapes, closed: a property a
 * body carries and a schema does not declare fails it, as does a declared one no body carries.
 */

const Status = StringEnum(['ORDERINIT', 'CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT', 'SUCCESS', 'CANCEL']);
const Timestamp = Type.String({
  format: 'date-time',
  description: 'When the change happened; the same on every attempt',
});
const Decimal = Type.String({ description: 'Exact decimal as a string, e.g. "91.5"' });
// delivery/outbox.ts eventValues: randomUUID(), so it identifies an event but does not order events.
const EventId = Type.String({
  format: 'uuid',
  description:
    "The event's id, a random UUID: the same in every delivery of the event (each webhook, each attempt) and in GET /partner/events; " +
    "deduplicate on it. It does not order events, and deliveries are not sent in order: a retry can arrive after a later change's delivery. " +
    'For an order, keep the furthest status applied and ignore an event whose data.status is not further along (statuses only move forward; ' +
    'SUCCESS and CANCEL are final), or read the order again with GET /partner/orders/{id}',
});
// orders/service.ts sandboxMarked: added, and true, only for a sandbox order.
const Sandbox = Type.Optional(
  Type.Literal(true, {
    description:
      'Present, and true, only on events of a sandbox order (placed in a sandbox branch); absent for real orders',
  }),
);

function envelope<E extends string, D extends TSchema>(
  id: string,
  event: E,
  data: D,
  extra: Record<string, TSchema> = {},
  example?: unknown,
) {
  // The keys in the order the body has them (delivery/outbox.ts eventValues).
  return Type.Object(
    { id: EventId, event: Type.Literal(event), timestamp: Timestamp, ...extra, data },
    { $id: id, title: id, ...(example ? { examples: [example] } : {}) },
  );
}

export const OrderCreatedEvent = envelope(
  'OrderCreatedEvent',
  'order.created',
  Type.Object({
    id: Type.Integer(),
    status: Type.Literal('ORDERINIT'),
    amountSource: Decimal,
    amountDest: Decimal,
    expiresAt: Nullable(Type.String({ format: 'date-time' }), {
      description:
        "When the order's payment window runs out: unpaid then, the system cancels it (order.cancelled with reason " +
        "`expired`). null when the exchange's orders never expire",
    }),
    sandbox: Sandbox,
  }),
  {},
  {
    id: '2592f0c4-6d0e-4b8a-9a51-3c1f0e7d8b2a',
    event: 'order.created',
    timestamp: '2026-01-15T10:00:00.000Z',
    data: {
      id: 42,
      status: 'ORDERINIT',
      amountSource: '100',
      amountDest: '91.5',
      expiresAt: '2026-01-15T11:00:00.000Z',
    },
  },
);

export const OrderStatusChangedEvent = envelope(
  'OrderStatusChangedEvent',
  'order.status_changed',
  Type.Object({
    id: Type.Integer(),
    status: Status,
    sandbox: Sandbox,
  }),
  { status: { ...Status, description: 'The new status (the same as data.status)' } },
);

export const OrderCancelledEvent = envelope(
  'OrderCancelledEvent',
  'order.cancelled',
  Type.Object({
    id: Type.Integer(),
    status: Type.Literal('CANCEL'),
    // orders/service.ts moveOrder: only on the system's cancel of an order whose payment window ran out.
    reason: Type.Optional(
      Type.Literal('expired', {
        description:
          'Present only when the system cancelled the order: `expired`, its payment window (expiresAt) ran out unpaid',
      }),
    ),
    sandbox: Sandbox,
  }),
);

export const OfferUpdatedEvent = envelope(
  'OfferUpdatedEvent',
  'offer.updated',
  Type.Object({
    id: Type.Integer(),
    exchangeId: Type.Integer(),
    currency1: Type.Object({ id: Type.Integer(), code: Type.String() }),
    currency2: Type.Object({ id: Type.Integer(), code: Type.String() }),
    rate: Decimal,
    minAmount: Decimal,
    maxAmount: Decimal,
    isActive: Type.Boolean(),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
);

export const WEBHOOK_EVENT_SCHEMAS = [
  OrderCreatedEvent,
  OrderStatusChangedEvent,
  OrderCancelledEvent,
  OfferUpdatedEvent,
];

const headers = [
  [
    'X-Webhook-Signature',
    "`sha256=` + hex HMAC-SHA256 of the raw body, keyed with the UTF-8 bytes of the webhook's secretKey",
  ],
  ['X-Webhook-Event', 'The event name'],
  ['X-Webhook-Delivery', 'The delivery id, the same on every attempt: deduplicate on it'],
  ['X-Webhook-Attempt', '1 for the first attempt, 2 for the first retry, …'],
  ['webhook-id', 'Standard Webhooks: the delivery id'],
  ['webhook-timestamp', "Standard Webhooks: the attempt's Unix time in seconds"],
  [
    'webhook-signature',
    'Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` (several, space-separated, may appear)',
  ],
] as const;

function webhook(schema: TSchema, operationId: string, summary: string) {
  return {
    post: {
      operationId,
      summary,
      tags: ['webhooks'],
      // Deliveries carry a signature, not credentials: the receiver verifies it (see the headers).
      security: [],
      parameters: headers.map(([name, description]) => ({
        name,
        in: 'header',
        required: true,
        description,
        schema: { type: 'string' },
      })),
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${(schema as { $id?: string }).$id}` } },
        },
      },
      responses: {
        200: { description: 'Any 2xx within the time-out: delivered' },
        400: {
          description:
            'Any other answer (or none) is a failed attempt, retried with back-off; refuse a bad signature with 400 or 401',
        },
      },
    },
  };
}

/** The OpenAPI 3.1 `webhooks` object: one entry per event. */
export function webhookDocs() {
  return {
    'order.created': webhook(OrderCreatedEvent, 'onOrderCreated', 'A partner created an order'),
    'order.status_changed': webhook(
      OrderStatusChangedEvent,
      'onOrderStatusChanged',
      'An order moved to another status',
    ),
    'order.cancelled': webhook(OrderCancelledEvent, 'onOrderCancelled', 'An order was cancelled'),
    'offer.updated': webhook(OfferUpdatedEvent, 'onOfferUpdated', 'An offer was created or changed'),
  };
}
