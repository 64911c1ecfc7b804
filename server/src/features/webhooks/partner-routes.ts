import type { Database } from '../../db/database.js';
import { byApiKey, idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { parseListQuery, type ListSpec, listMeta } from '../../http/list-query.js';
import type { Metrics } from '../../http/metrics.js';
import { partnerRoute } from '../../auth/route-access.js';
import { ListQuery, NoContent, optionalBody } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import * as deliveries from '../delivery/presenters.js';
import { Delivery, DeliveryDetail, DeliveryList, DELIVERY_STATUSES } from '../delivery/schemas.js';
import * as present from './presenters.js';
import type { Visibility } from './service.js';
import {
  CreateWebhook,
  DeliveryParams,
  RotatedWebhook,
  RotateSecretRequest,
  UpdateWebhook,
  Webhook,
  WebhookList,
  WebhookParams,
  WebhookWithSecret,
  WEBHOOK_EVENTS,
} from './schemas.js';
import * as service from './service.js';

export const WEBHOOK_LIST: ListSpec = {
  filters: { isActive: { type: 'boolean' } },
  sorts: ['id', 'url', 'isActive', 'failCount', 'createdAt', 'updatedAt'],
};
export const DELIVERY_LIST: ListSpec = {
  filters: {
    status: { type: 'enum', values: DELIVERY_STATUSES },
    event: { type: 'enum', values: WEBHOOK_EVENTS },
    createdAt: { type: 'dateRange' },
  },
  sorts: ['id', 'status', 'event', 'attempts', 'createdAt', 'updatedAt'],
};
/** Webhooks list oldest first; the delivery log newest first, as a log is read. */
export const listParams = (query: { sort?: string }, spec: ListSpec, sort: string) =>
  parseListQuery({ ...query, sort: query.sort ?? sort }, spec);
export const OLDEST_FIRST = '[["createdAt","ASC"]]';
export const NEWEST_FIRST = '[["createdAt","DESC"]]';

const route = partnerRoute('webhooks');
const access = { permission: 'webhooks:manage' } as const;

/** What the registry's routes use of the process: the database, the delivery metrics, and the URL rule. */
export interface WebhookDeps {
  db: Database;
  metrics: Metrics;
  config: {
    webhooks: { allowPrivateUrls: boolean };
    ownerLimits: { webhooksPerOwner: number };
    idempotency: IdempotencyOptions;
  };
}

/** Partner webhook registry: each route reaches only the webhooks of the calling key's principal. */
export function webhookRoutes(deps: WebhookDeps) {
  const { db, metrics } = deps;
  const allowPrivateUrls = deps.config.webhooks.allowPrivateUrls;
  const limit = deps.config.ownerLimits.webhooksPerOwner;
  const respond = idempotentResponder(db, deps.config.idempotency, byApiKey);
  return async function routes(app: App) {
    app.post(
      '/webhooks',
      route({
        ...access,
        errors: [422],
        config: { noStore: true },
        schema: {
          operationId: 'createWebhook',
          summary: 'Register a webhook (the secret is returned once)',
          body: CreateWebhook,
          headers: IdempotencyHeaders,
          response: { 201: WebhookWithSecret },
        },
      }),
      async (request, reply) => {
        return respond(request, reply, 201, async (tx) =>
          present.webhookWithSecret(
            await service.createWebhook(tx ?? db, allowPrivateUrls, limit, request.apiKey, request.body),
          ),
        );
      },
    );

    app.get(
      '/webhooks',
      route({
        ...access,
        schema: {
          operationId: 'listWebhooks',
          summary: "Webhooks of the key's principal",
          querystring: ListQuery,
          response: { 200: WebhookList },
        },
      }),
      async (request) => {
        const params = listParams(request.query, WEBHOOK_LIST, OLDEST_FIRST);
        const page = await service.listWebhooks(db, service.keyVisibility(request.apiKey), params);
        return { data: page.rows.map(present.webhook), meta: listMeta(page, params) };
      },
    );

    app.get(
      '/webhooks/:id',
      route({
        ...access,
        errors: [400, 404],
        config: { etag: true },
        schema: {
          operationId: 'getWebhook',
          summary: 'One webhook',
          params: WebhookParams,
          response: { 200: Webhook },
        },
      }),
      async (request) =>
        present.webhook(await service.getWebhook(db, service.keyVisibility(request.apiKey), request.params.id)),
    );

    app.patch(
      '/webhooks/:id',
      route({
        ...access,
        errors: [404],
        schema: {
          operationId: 'updateWebhook',
          summary: "Change a webhook's url or events",
          params: WebhookParams,
          body: UpdateWebhook,
          response: { 200: Webhook },
        },
      }),
      async (request) =>
        present.webhook(
          await service.updateWebhook(
            db,
            allowPrivateUrls,
            service.keyVisibility(request.apiKey),
            request.params.id,
            request.body,
          ),
        ),
    );

    app.delete(
      '/webhooks/:id',
      route({
        ...access,
        errors: [400, 404],
        schema: {
          operationId: 'deleteWebhook',
          summary: 'Remove a webhook; its pending deliveries are abandoned',
          params: WebhookParams,
          response: { 204: NoContent },
        },
      }),
      async (request, reply) => {
        await service.deleteWebhook(db, metrics, service.keyVisibility(request.apiKey), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/webhooks/:id/reactivate',
      route({
        ...access,
        errors: [400, 404],
        schema: {
          operationId: 'reactivateWebhook',
          summary: 'Make a webhook active again (failCount 0)',
          params: WebhookParams,
          response: { 200: Webhook },
        },
      }),
      async (request) =>
        present.webhook(await service.reactivateWebhook(db, service.keyVisibility(request.apiKey), request.params.id)),
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      route({
        ...access,
        errors: [404],
        config: { noStore: true },
        preValidation: optionalBody,
        schema: {
          operationId: 'rotateWebhookSecret',
          summary:
            'Replace the signing secret (the new one is returned once); the old one keeps signing beside it for overlapSeconds (default 24 hours)',
          params: WebhookParams,
          body: RotateSecretRequest,
          response: { 200: RotatedWebhook },
        },
      }),
      async (request) => {
        return present.rotatedWebhook(
          await service.rotateSecret(
            db,
            service.keyVisibility(request.apiKey),
            request.params.id,
            request.body.overlapSeconds,
          ),
        );
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      route({
        ...access,
        errors: [404],
        schema: {
          operationId: 'listWebhookDeliveries',
          summary: 'Delivery log of a webhook, newest first',
          params: WebhookParams,
          querystring: ListQuery,
          response: { 200: DeliveryList },
        },
      }),
      async (request) => deliveryPage(db, service.keyVisibility(request.apiKey), request.params.id, request.query),
    );

    app.get(
      '/webhooks/:id/deliveries/:deliveryId',
      route({
        ...access,
        errors: [400, 404],
        config: { etag: true },
        schema: {
          operationId: 'getWebhookDelivery',
          summary: 'One delivery with its payload and every attempt',
          params: DeliveryParams,
          response: { 200: DeliveryDetail },
        },
      }),
      async (request) => {
        const found = await service.getDelivery(
          db,
          service.keyVisibility(request.apiKey),
          request.params.id,
          request.params.deliveryId,
        );
        return deliveries.deliveryDetail(found.delivery, found.attempts);
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/retry',
      route({
        ...access,
        errors: [400, 404, 422],
        schema: {
          operationId: 'retryWebhookDelivery',
          summary: 'Attempt a delivery again now',
          params: DeliveryParams,
          response: { 202: Delivery },
        },
      }),
      async (request, reply) =>
        reply
          .code(202)
          .send(
            deliveries.delivery(
              await service.retryDelivery(
                db,
                service.keyVisibility(request.apiKey),
                request.params.id,
                request.params.deliveryId,
              ),
            ),
          ),
    );
  };
}

/** The delivery log of one visible webhook; 404 when the webhook is not visible, even if it has no deliveries. */
export async function deliveryPage(
  db: Database,
  v: Visibility,
  id: string,
  query: { skip?: number; limit?: number; filter?: string; sort?: string },
) {
  const params = listParams(query, DELIVERY_LIST, NEWEST_FIRST);
  const page = await service.listDeliveries(db, v, id, params);
  return { data: page.rows.map(deliveries.delivery), meta: listMeta(page, params) };
}
