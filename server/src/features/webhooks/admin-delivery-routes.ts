import type { Database } from '../../db/database.js';
import { staffRoute } from '../../auth/route-access.js';
import { optionalBody } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { auditOf } from '../audit/service.js';
import * as deliveries from '../delivery/presenters.js';
import { Delivery, DeliveryDetail } from '../delivery/schemas.js';
import { STAFF_WEBHOOK_ACCESS } from './admin-routes.js';
import * as present from './presenters.js';
import { AdminWebhook, DeliveryParams, RotatedWebhook, RotateSecretRequest, WebhookParams } from './schemas.js';
import * as service from './service.js';

const route = staffRoute('admin');

/**
 * What the back office does for a partner whose webhook is in trouble: read one webhook and one delivery with
 * its attempts, send a delivery again, rotate a leaked secret. The same rules as the partner routes.
 */
export function webhookAdminDeliveryRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get('/webhooks/:id', route({
      ...STAFF_WEBHOOK_ACCESS, errors: [400, 404],
      schema: { operationId: 'getAdminWebhook', summary: 'One webhook with its health', params: WebhookParams, response: { 200: AdminWebhook } },
    }), async (request) => present.adminWebhook(await service.getWebhook(db, service.staffVisibility(request.staff), request.params.id)));

    app.get('/webhooks/:id/deliveries/:deliveryId', route({
      ...STAFF_WEBHOOK_ACCESS, errors: [400, 404],
      schema: {
        operationId: 'getAdminDelivery', summary: 'One delivery with its payload and every attempt (status, duration, answer)',
        params: DeliveryParams, response: { 200: DeliveryDetail },
      },
    }), async (request) => {
      const found = await service.getDelivery(db, service.staffVisibility(request.staff), request.params.id, request.params.deliveryId);
      return deliveries.deliveryDetail(found.delivery, found.attempts);
    });

    app.post('/webhooks/:id/deliveries/:deliveryId/retry', route({
      ...STAFF_WEBHOOK_ACCESS, errors: [400, 404, 422],
      schema: {
        operationId: 'retryAdminDelivery', summary: 'Attempt a delivery again now (an inactive webhook gives 422)',
        params: DeliveryParams, response: { 202: Delivery },
      },
    }), async (request, reply) => reply.code(202).send(deliveries.delivery(
      await service.retryDelivery(db, service.staffVisibility(request.staff), request.params.id, request.params.deliveryId, auditOf(request)))));

    app.post('/webhooks/:id/rotate-secret', route({
      ...STAFF_WEBHOOK_ACCESS, errors: [404],
      config: { noStore: true },
      schema: {
        operationId: 'rotateAdminWebhookSecret',
        summary: 'Replace the signing secret (the new one is returned once); the old one keeps signing beside it for overlapSeconds (default 24 hours)',
        params: WebhookParams, body: RotateSecretRequest, response: { 200: RotatedWebhook },
      },
      preValidation: optionalBody,
    }), async (request) => {
      return present.rotatedWebhook(await service.rotateSecret(db, service.staffVisibility(request.staff), request.params.id, request.body.overlapSeconds, auditOf(request)));
    });
  };
}
