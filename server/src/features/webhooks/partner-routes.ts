import type { Database } from '../../db/database.js';
import { idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { parseListQuery, type ListSpec, listMeta } from '../../http/list-query.js';
import type { Metrics } from '../../http/metrics.js';
import { errorResponses, ListQuery, NoContent, optionalBody } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import * as deliveries from '../delivery/presenters.js';
import { Delivery, DeliveryDetail, DeliveryList, DELIVERY_STATUSES } from '../delivery/schemas.js';
import * as present from './presenters.js';
import type { Visibility } from './service.js';
import { CreateWebhook, DeliveryParams, RotatedWebhook, RotateSecretRequest, UpdateWebhook, Webhook, WebhookList, WebhookParams, WebhookWithSecret, WEBHOOK_EVENTS } from './schemas.js';
import * as service from './service.js';

export const WEBHOOK_LIST: ListSpec = {
  filters: { isActive: { type: 'boolean' } },
  sorts: ['id', 'url', 'isActive', 'failCount', 'createdAt', 'updatedAt'],
};
export const DELIVERY_LIST: ListSpec = {
  filters: { status: { type: 'enum', values: DELIVERY_STATUSES }, event: { type: 'enum', values: WEBHOOK_EVENTS }, createdAt: { type: 'dateRange' } },
  sorts: ['id', 'status', 'event', 'attempts', 'createdAt', 'updatedAt'],
};
/** Webhooks list oldest first; the delivery log newest first, as a log is read. */
export const listParams = (query: { sort?: string }, spec: ListSpec, sort: string) => parseListQuery({ ...query, sort: query.sort ?? sort }, spec);
export const OLDEST_FIRST = '[["createdAt","ASC"]]';
export const NEWEST_FIRST = '[["createdAt","DESC"]]';

const security = [{ apiKey: [] }];
const tags = ['webhooks'];
const config = { permission: 'webhooks:manage' as const };

/** What the registry's routes use of the process: the database, the delivery metrics, and the URL rule. */
export interface WebhookDeps { db: Database; metrics: Metrics; config: { webhooks: { allowPrivateUrls: boolean }; ownerLimits: { webhooksPerOwner: number }; idempotency: IdempotencyOptions } }

/** Partner webhook registry: each route reaches only the webhooks of the calling key's principal. */
export function webhookRoutes(deps: WebhookDeps) {
  const { db, metrics } = deps;
  const allowPrivateUrls = deps.config.webhooks.allowPrivateUrls;
  const limit = deps.config.ownerLimits.webhooksPerOwner;
  const respond = idempotentResponder(db, deps.config.idempotency);
  return async function routes(app: App) {
    app.post('/webhooks', {
      config: { ...config, noStore: true },
      schema: {
        operationId: 'createWebhook', tags, summary: 'Register a webhook (the secret is returned once)', security, body: CreateWebhook, headers: IdempotencyHeaders,
        response: { 201: WebhookWithSecret, ...errorResponses(400, 401, 403, 422, 429) },
      },
    }, async (request, reply) => {
      return respond(request, reply, 201, async (tx) => present.webhookWithSecret(await service.createWebhook(tx ?? db, allowPrivateUrls, limit, request.apiKey, request.body)));
    });

    app.get('/webhooks', {
      config,
      schema: { operationId: 'listWebhooks', tags, summary: 'Webhooks of the key\'s principal', security, querystring: ListQuery, response: { 200: WebhookList, ...errorResponses(400, 401, 403, 429) } },
    }, async (request) => {
      const params = listParams(request.query, WEBHOOK_LIST, OLDEST_FIRST);
      const page = await service.listWebhooks(db, service.keyVisibility(request.apiKey), params);
      return { data: page.rows.map(present.webhook), meta: listMeta(page, params) };
    });

    app.get('/webhooks/:id', {
      config: { ...config, etag: true },
      schema: { operationId: 'getWebhook', tags, summary: 'One webhook', security, params: WebhookParams, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404, 429) } },
    }, async (request) => present.webhook(await service.getWebhook(db, service.keyVisibility(request.apiKey), request.params.id)));

    app.patch('/webhooks/:id', {
      config,
      schema: { operationId: 'updateWebhook', tags, summary: 'Change a webhook\'s url or events', security, params: WebhookParams, body: UpdateWebhook, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404, 429) } },
    }, async (request) => present.webhook(await service.updateWebhook(db, allowPrivateUrls, service.keyVisibility(request.apiKey), request.params.id, request.body)));

    app.delete('/webhooks/:id', {
      config,
      schema: { operationId: 'deleteWebhook', tags, summary: 'Remove a webhook; its pending deliveries are abandoned', security, params: WebhookParams, response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 429) } },
    }, async (request, reply) => {
      await service.deleteWebhook(db, metrics, service.keyVisibility(request.apiKey), request.params.id);
      return reply.code(204).send(null);
    });

    app.post('/webhooks/:id/reactivate', {
      config,
      schema: { operationId: 'reactivateWebhook', tags, summary: 'Make a webhook active again (failCount 0)', security, params: WebhookParams, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404, 429) } },
    }, async (request) => present.webhook(await service.reactivateWebhook(db, service.keyVisibility(request.apiKey), request.params.id)));

    app.post('/webhooks/:id/rotate-secret', {
      config: { ...config, noStore: true },
      preValidation: optionalBody,
      schema: {
        operationId: 'rotateWebhookSecret', tags, summary: 'Replace the signing secret (the new one is returned once); the old one keeps signing beside it for overlapSeconds (default 24 hours)',
        security, params: WebhookParams, body: RotateSecretRequest, response: { 200: RotatedWebhook, ...errorResponses(400, 401, 403, 404, 429) },
      },
    }, async (request) => {
      return present.rotatedWebhook(await service.rotateSecret(db, service.keyVisibility(request.apiKey), request.params.id, request.body.overlapSeconds));
    });

    app.get('/webhooks/:id/deliveries', {
      config,
      schema: { operationId: 'listWebhookDeliveries', tags, summary: 'Delivery log of a webhook, newest first', security, params: WebhookParams, querystring: ListQuery, response: { 200: DeliveryList, ...errorResponses(400, 401, 403, 404, 429) } },
    }, async (request) => deliveryPage(db, service.keyVisibility(request.apiKey), request.params.id, request.query));

    app.get('/webhooks/:id/deliveries/:deliveryId', {
      config: { ...config, etag: true },
      schema: { operationId: 'getWebhookDelivery', tags, summary: 'One delivery with its payload and every attempt', security, params: DeliveryParams, response: { 200: DeliveryDetail, ...errorResponses(400, 401, 403, 404, 429) } },
    }, async (request) => {
      const found = await service.getDelivery(db, service.keyVisibility(request.apiKey), request.params.id, request.params.deliveryId);
      return deliveries.deliveryDetail(found.delivery, found.attempts);
    });

    app.post('/webhooks/:id/deliveries/:deliveryId/retry', {
      config,
      schema: { operationId: 'retryWebhookDelivery', tags, summary: 'Attempt a delivery again now', security, params: DeliveryParams, response: { 202: Delivery, ...errorResponses(400, 401, 403, 404, 422, 429) } },
    }, async (request, reply) => reply.code(202).send(deliveries.delivery(
      await service.retryDelivery(db, service.keyVisibility(request.apiKey), request.params.id, request.params.deliveryId))));
  };
}

/** The delivery log of one visible webhook; 404 when the webhook is not visible, even if it has no deliveries. */
export async function deliveryPage(db: Database, v: Visibility, id: string, query: { skip?: number; limit?: number; filter?: string; sort?: string }) {
  const params = listParams(query, DELIVERY_LIST, NEWEST_FIRST);
  const page = await service.listDeliveries(db, v, id, params);
  return { data: page.rows.map(deliveries.delivery), meta: listMeta(page, params) };
}
