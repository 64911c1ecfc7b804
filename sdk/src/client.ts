import createFetchClient from 'openapi-fetch';
import { PxsError } from './errors.js';
import { etagFetch, type EtagCacheOptions } from './etag.js';
import type { paths } from './generated/openapi.js';
import { pageQuery, paginate, type Page } from './pagination.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import type { CallOptions, CreateOptions, QueryOf, RequestBody, ResponseOf } from './types.js';

export interface ClientOptions {
  /** Where the service runs, e.g. `https://pxs.example.com`; the contract's form, `…/api/v1`, is taken too. */
  baseUrl: string;
  /** A partner API key: `sk_personal_…`, `sk_branch_…` or `pk_…`. */
  apiKey: string;
  /** Retry policy (see RetryOptions), or false for none. */
  retry?: RetryOptions | false;
  /** A fetch to use instead of the global one. */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request (e.g. a User-Agent of yours). */
  headers?: Record<string, string>;
  /**
   * Cheap polling: keep the last ETag-tagged answer of each GET URL, send its tag as If-None-Match, and resolve a
   * `304 Not Modified` with the kept body (see docs/sdk.md). Off by default; `true`, or `{ maxEntries }` (500).
   */
  etagCache?: boolean | EtagCacheOptions;
}

/** What the server takes as an Idempotency-Key: 1 to 255 printable ASCII characters, space to tilde. */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Refuses an idempotency key the server would refuse (and that fetch may not even send: a header value outside
 * Latin-1 is fetch's TypeError), before anything is sent: a RangeError naming the rule.
 */
export function checkIdempotencyKey(key: unknown): void {
  if (typeof key === 'string' && IDEMPOTENCY_KEY.test(key)) return;
  const what =
    typeof key === 'string'
      ? key.length === 0
        ? 'empty'
        : key.length > 255
          ? `${key.length} characters long`
          : 'not printable ASCII'
      : `a ${typeof key}`;
  throw new RangeError(
    `idempotencyKey must be 1 to 255 printable ASCII characters (U+0020 to U+007E); this one is ${what}`,
  );
}

interface Result {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** Creates a client of the partner API. Every method resolves with the answer's body or rejects with a PxsError. */
export function createClient(options: ClientOptions) {
  if (!options.apiKey) throw new TypeError('createClient needs an apiKey');
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retrying = retryingFetch(baseFetch, options.retry);
  const raw = createFetchClient<paths>({
    // The operations' paths carry /api/v1 already.
    baseUrl: options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, ''),
    fetch: options.etagCache ? etagFetch(retrying, options.etagCache === true ? {} : options.etagCache) : retrying,
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
  });

  async function unwrap<T>(call: Promise<Result>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok)
      throw new PxsError(response.status, error ?? null, response.headers.get('x-request-id') ?? undefined);
    return data as T;
  }
  const init = (o: CallOptions = {}) => ({ signal: o.signal, headers: o.headers });
  const creating = (o: CreateOptions = {}) => {
    if (o.idempotencyKey !== undefined) checkIdempotencyKey(o.idempotencyKey);
    return {
      signal: o.signal,
      headers: { ...o.headers, ...(o.idempotencyKey !== undefined ? { 'Idempotency-Key': o.idempotencyKey } : {}) },
    };
  };
  /** Runs `send` so that a refusal before sending (a bad idempotency key) rejects, as the answer's errors do. */
  const later = <T>(send: () => Promise<T>): Promise<T> => Promise.resolve().then(send);
  const id = (value: number) => ({ params: { path: { id: value } } });
  const hook = (value: string) => ({ params: { path: { id: value } } });
  const delivery = (webhookId: string, deliveryId: string) => ({ params: { path: { id: webhookId, deliveryId } } });

  const client = {
    /** The underlying openapi-fetch client, for any path of the document (same auth and retries). */
    raw,

    // Public catalogue (any key type)
    listPublicExchanges: (o?: CallOptions) =>
      unwrap<ResponseOf<'listPublicExchanges'>>(raw.GET('/api/v1/partner/public/exchanges', init(o))),
    listPublicCurrencies: (o?: CallOptions) =>
      unwrap<ResponseOf<'listPublicCurrencies'>>(raw.GET('/api/v1/partner/public/currencies', init(o))),
    listRates: (query: QueryOf<'listRates'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listRates'>>(raw.GET('/api/v1/partner/public/rates', { ...init(o), params: { query } })),
    getEstimate: (body: RequestBody<'getEstimate'>, o?: CallOptions) =>
      unwrap<ResponseOf<'getEstimate'>>(raw.POST('/api/v1/partner/public/estimate', { ...init(o), body })),

    // Exchanges and offers
    getExchange: (exchangeId: number, o?: CallOptions) =>
      unwrap<ResponseOf<'getExchange'>>(raw.GET('/api/v1/partner/exchanges/{id}', { ...init(o), ...id(exchangeId) })),
    listOffers: (query: QueryOf<'listOffers'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listOffers'>>(raw.GET('/api/v1/partner/offers', { ...init(o), params: { query } })),
    /** Every offer matching `query` (its `filter` and `sort`), fetching pages of `limit` as it goes. */
    iterateOffers: (query: Omit<QueryOf<'listOffers'>, 'skip'> & { skip?: number } = {}, o?: CallOptions) =>
      paginate(
        (page) =>
          unwrap<Page<ResponseOf<'listOffers'>['data'][number]>>(
            raw.GET('/api/v1/partner/offers', {
              ...init(o),
              params: { query: pageQuery(query, page) as QueryOf<'listOffers'> },
            }),
          ),
        query,
      ),

    /** The payment methods an order's paymentMethodSource / paymentMethodDest may name (exchangeId null: every office). */
    listPaymentMethods: (query: QueryOf<'listPaymentMethods'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listPaymentMethods'>>(
        raw.GET('/api/v1/partner/payment-methods', { ...init(o), params: { query } }),
      ),

    // Firm quotes, the events feed, client lookup, the sandbox and the rate export (docs/integration.md)
    createQuote: (body: RequestBody<'createQuote'>, o?: CallOptions) =>
      unwrap<ResponseOf<'createQuote'>>(raw.POST('/api/v1/partner/public/quotes', { ...init(o), body })),
    listEvents: (query: QueryOf<'listEvents'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listEvents'>>(raw.GET('/api/v1/partner/events', { ...init(o), params: { query } })),
    listClients: (query: QueryOf<'listClients'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listClients'>>(raw.GET('/api/v1/partner/clients', { ...init(o), params: { query } })),
    moveSandboxOrder: (orderId: number, body: RequestBody<'moveSandboxOrder'>, o?: CallOptions) =>
      unwrap<ResponseOf<'moveSandboxOrder'>>(
        raw.POST('/api/v1/partner/sandbox/orders/{id}/status', { ...init(o), ...id(orderId), body }),
      ),
    /** The rates as the XML that exchange-rate monitors read, as text. */
    getRatesXml: (query: QueryOf<'getRatesXml'> = {}, o?: CallOptions) =>
      unwrap<string>(raw.GET('/api/v1/partner/public/rates.xml', { ...init(o), params: { query }, parseAs: 'text' })),

    // Orders
    createOrder: (body: RequestBody<'createOrder'>, o?: CreateOptions) =>
      later(() => unwrap<ResponseOf<'createOrder'>>(raw.POST('/api/v1/partner/orders', { ...creating(o), body }))),
    listOrders: (query: QueryOf<'listOrders'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listOrders'>>(raw.GET('/api/v1/partner/orders', { ...init(o), params: { query } })),
    /** Every order in the key's scope matching `query`, fetching pages of `limit` as it goes. */
    iterateOrders: (query: QueryOf<'listOrders'> = {}, o?: CallOptions) =>
      paginate(
        (page) =>
          unwrap<Page<ResponseOf<'listOrders'>['data'][number]>>(
            raw.GET('/api/v1/partner/orders', {
              ...init(o),
              params: { query: pageQuery(query, page) as QueryOf<'listOrders'> },
            }),
          ),
        query,
      ),
    getOrder: (orderId: number, o?: CallOptions) =>
      unwrap<ResponseOf<'getOrder'>>(raw.GET('/api/v1/partner/orders/{id}', { ...init(o), ...id(orderId) })),
    cancelOrder: (orderId: number, o?: CallOptions) =>
      unwrap<ResponseOf<'cancelOrder'>>(raw.POST('/api/v1/partner/orders/{id}/cancel', { ...init(o), ...id(orderId) })),

    // Clients
    createClient: (body: RequestBody<'createClient'>, o?: CreateOptions) =>
      later(() => unwrap<ResponseOf<'createClient'>>(raw.POST('/api/v1/partner/clients', { ...creating(o), body }))),
    getClient: (clientId: number, o?: CallOptions) =>
      unwrap<ResponseOf<'getClient'>>(raw.GET('/api/v1/partner/clients/{id}', { ...init(o), ...id(clientId) })),
    updateClient: (clientId: number, body: RequestBody<'updateClient'>, o?: CallOptions) =>
      unwrap<ResponseOf<'updateClient'>>(
        raw.PATCH('/api/v1/partner/clients/{id}', { ...init(o), ...id(clientId), body }),
      ),

    // Webhooks
    createWebhook: (body: RequestBody<'createWebhook'>, o?: CreateOptions) =>
      later(() => unwrap<ResponseOf<'createWebhook'>>(raw.POST('/api/v1/partner/webhooks', { ...creating(o), body }))),
    listWebhooks: (query: QueryOf<'listWebhooks'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listWebhooks'>>(raw.GET('/api/v1/partner/webhooks', { ...init(o), params: { query } })),
    getWebhook: (webhookId: string, o?: CallOptions) =>
      unwrap<ResponseOf<'getWebhook'>>(raw.GET('/api/v1/partner/webhooks/{id}', { ...init(o), ...hook(webhookId) })),
    updateWebhook: (webhookId: string, body: RequestBody<'updateWebhook'>, o?: CallOptions) =>
      unwrap<ResponseOf<'updateWebhook'>>(
        raw.PATCH('/api/v1/partner/webhooks/{id}', { ...init(o), ...hook(webhookId), body }),
      ),
    deleteWebhook: (webhookId: string, o?: CallOptions) =>
      unwrap<void>(raw.DELETE('/api/v1/partner/webhooks/{id}', { ...init(o), ...hook(webhookId) })),
    reactivateWebhook: (webhookId: string, o?: CallOptions) =>
      unwrap<ResponseOf<'reactivateWebhook'>>(
        raw.POST('/api/v1/partner/webhooks/{id}/reactivate', { ...init(o), ...hook(webhookId) }),
      ),
    rotateWebhookSecret: (webhookId: string, body: RequestBody<'rotateWebhookSecret'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'rotateWebhookSecret'>>(
        raw.POST('/api/v1/partner/webhooks/{id}/rotate-secret', { ...init(o), ...hook(webhookId), body }),
      ),
    listWebhookDeliveries: (webhookId: string, query: QueryOf<'listWebhookDeliveries'> = {}, o?: CallOptions) =>
      unwrap<ResponseOf<'listWebhookDeliveries'>>(
        raw.GET('/api/v1/partner/webhooks/{id}/deliveries', { ...init(o), params: { path: { id: webhookId }, query } }),
      ),
    getWebhookDelivery: (webhookId: string, deliveryId: string, o?: CallOptions) =>
      unwrap<ResponseOf<'getWebhookDelivery'>>(
        raw.GET('/api/v1/partner/webhooks/{id}/deliveries/{deliveryId}', {
          ...init(o),
          ...delivery(webhookId, deliveryId),
        }),
      ),
    retryWebhookDelivery: (webhookId: string, deliveryId: string, o?: CallOptions) =>
      unwrap<ResponseOf<'retryWebhookDelivery'>>(
        raw.POST('/api/v1/partner/webhooks/{id}/deliveries/{deliveryId}/retry', {
          ...init(o),
          ...delivery(webhookId, deliveryId),
        }),
      ),
  };
  return client;
}

export type PxsClient = ReturnType<typeof createClient>;
