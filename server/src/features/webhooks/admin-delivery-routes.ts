import type { Database } from '../../db/database.js';
import { errorResponses, optionalBody } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { auditOf } from '../audit/service.js';
import * as deliveries from '../delivery/presenters.js';
import { Delivery, DeliveryDetail } from '../delivery/schemas.js';
import { STAFF_WEBHOOK_ACCESS } from './admin-routes.js';
import * as present from './presenters.js';
import { AdminWebhook, DeliveryParams, RotatedWebhook, RotateSecretRequest, WebhookParams } from './schemas.js';
import * as service from './service.js';

const security = [{ staffJwt: [] }];
const tags = ['admin'];

/**
 * What the back office does for a partner whose webhook is in trouble: read one webhook and one delivery with
 * its attempts, send a delivery again, rotate a leaked secret. The same rules as the partner routes.
 */
export function webhookAdminDeliveryRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get('/webhooks/:id', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: {
        operationId: 'getAdminWebhook', tags, summary: 'One webhook with its health', security, params: WebhookParams,
        response: { 200: AdminWebhook, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => present.adminWebhook(await service.getWebhook(db, service.staffVisibility(request.staff), request.params.id)));

    app.get('/webhooks/:id/deliveries/:deliveryId', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: {
        operationId: 'getAdminDelivery', tags, summary: 'One delivery with its payload and every attempt (status, duration, answer)',
        security, params: DeliveryParams, response: { 200: DeliveryDetail, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => {
      const found = await service.getDelivery(db, service.staffVisibility(request.staff), request.params.id, request.params.deliveryId);
      return deliveries.deliveryDetail(found.delivery, found.attempts);
    });

    app.post('/webhooks/:id/deliveries/:deliveryId/retry', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: {
        operationId: 'retryAdminDelivery', tags, summary: 'Attempt a delivery again now (an inactive webhook gives 422)',
        security, params: DeliveryParams, response: { 202: Delivery, ...errorResponses(400, 401, 403, 404, 422) },
      },
    }, async (request, reply) => reply.code(202).send(deliveries.delivery(
      await service.retryDelivery(db, service.staffVisibility(request.staff), request.params.id, request.params.deliveryId, auditOf(request)))));

    app.post('/webhooks/:id/rotate-secret', {
      ...STAFF_WEBHOOK_ACCESS,
      config: { ...STAFF_WEBHOOK_ACCESS.config, noStore: true },
      schema: {
        operationId: 'rotateAdminWebhookSecret', tags,
        summary: 'Replace the signing secret (the new one is returned once); the old one keeps signing beside it for overlapSeconds (default 24 hours)',
        security, params: WebhookParams, body: RotateSecretRequest, response: { 200: RotatedWebhook, ...errorResponses(400, 401, 403, 404) },
      },
      preValidation: optionalBody,
    }, async (request) => {
      return present.rotatedWebhook(await service.rotateSecret(db, service.staffVisibility(request.staff), request.params.id, request.body.overlapSeconds, auditOf(request)));
    });
  };
}
