import type { operations } from './generated/openapi.js';

export type OperationId = keyof operations;
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Responses<K extends OperationId> = operations[K]['responses'];

/** The JSON body an operation takes. */
export type RequestBody<K extends OperationId> = JsonOf<operations[K]['requestBody']>;
/** The query parameters an operation takes. */
export type QueryOf<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;
/** What an operation answers on success (200, 201 or 202; nothing for a 204). */
export type ResponseOf<K extends OperationId> = 200 extends keyof Responses<K>
  ? JsonOf<Responses<K>[200]>
  : 201 extends keyof Responses<K>
    ? JsonOf<Responses<K>[201]>
    : 202 extends keyof Responses<K>
      ? JsonOf<Responses<K>[202]>
      : void;

export type Order = ResponseOf<'getOrder'>;
export type NewOrder = RequestBody<'createOrder'>;
export type Offer = ResponseOf<'listOffers'>['data'][number];
export type PaymentMethod = ResponseOf<'listPaymentMethods'>['data'][number];
export type Client = ResponseOf<'getClient'>;
export type NewClient = RequestBody<'createClient'>;
export type ClientUpdate = RequestBody<'updateClient'>;
export type Estimate = ResponseOf<'getEstimate'>;
export type EstimateRequest = RequestBody<'getEstimate'>;
export type Webhook = ResponseOf<'getWebhook'>;
export type WebhookWithSecret = ResponseOf<'createWebhook'>;
export type Delivery = ResponseOf<'retryWebhookDelivery'>;
export type ListQuery = QueryOf<'listOrders'>;

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers of this call. */
  headers?: Record<string, string>;
}

/** Options of a call that creates: an idempotency key makes it safe to retry after a 503 or a lost connection. */
export interface CreateOptions extends CallOptions {
  /**
   * Sent as the `Idempotency-Key` header: 1 to 255 printable ASCII characters (U+0020 to U+007E), e.g.
   * `crypto.randomUUID()`. Any other value rejects with a RangeError before the request is sent.
   */
  idempotencyKey?: string;
}
