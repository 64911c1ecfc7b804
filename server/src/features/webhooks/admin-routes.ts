import { listMeta } from '../../http/list-query.js';
import type { Database } from '../../db/database.js';
import type { Metrics } from '../../http/metrics.js';
import { staffRoute } from '../../auth/route-access.js';
import { ListQuery, NoContent, optionalBody } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { auditOf } from '../audit/service.js';
import * as deliveries from '../delivery/presenters.js';
import { Delivery, DeliveryDetail, DeliveryList } from '../delivery/schemas.js';
import * as present from './presenters.js';
import { deliveryPage, listParams, OLDEST_FIRST } from './partner-routes.js';
import {
  AdminWebhook,
  AdminWebhookList,
  DeliveryParams,
  RotatedWebhook,
  RotateSecretRequest,
  WebhookParams,
} from './schemas.js';
import * as service from './service.js';

const ADMIN_WEBHOOK_LIST = {
  filters: {
    isActive: { type: 'boolean' as const },
    branchId: { type: 'integer' as const },
    staffUserId: { type: 'integer' as const },
  },
  sorts: ['id', 'url', 'isActive', 'failCount', 'createdAt', 'updatedAt'],
};

const route = staffRoute('admin');
/** Admins see their branch's webhooks, a superadmin every one, an operator with webhooks:manage its own. */
export const STAFF_WEBHOOK_ACCESS = { permission: 'webhooks:manage' } as const;

/** Back-office views of the webhooks the staff user may see (service.staffVisibility), and stopping one. */
export function webhookAdminRoutes({ db, metrics }: { db: Database; metrics: Metrics }) {
  return async function routes(app: App) {
    app.get(
      '/webhooks',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        schema: {
          operationId: 'listAdminWebhooks',
          summary: 'Webhooks of the branch, with their owners',
          querystring: ListQuery,
          response: { 200: AdminWebhookList },
        },
      }),
      async (request) => {
        const params = listParams(request.query, ADMIN_WEBHOOK_LIST, OLDEST_FIRST);
        const page = await service.listWebhooks(db, service.staffVisibility(request.staff), params);
        const emails = await service.ownerEmails(
          db,
          page.rows.flatMap((w) => (w.staff_user_id === null ? [] : [w.staff_user_id])),
        );
        return { data: page.rows.map((w) => present.listedAdminWebhook(w, emails)), meta: listMeta(page, params) };
      },
    );

    app.get(
      '/webhooks/:id/deliveries',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [404],
        schema: {
          operationId: 'listAdminWebhookDeliveries',
          summary: 'Delivery log of a webhook, newest first',
          params: WebhookParams,
          querystring: ListQuery,
          response: { 200: DeliveryList },
        },
      }),
      async (request) => deliveryPage(db, service.staffVisibility(request.staff), request.params.id, request.query),
    );

    app.post(
      '/webhooks/:id/reactivate',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [400, 404],
        schema: {
          operationId: 'reactivateAdminWebhook',
          summary: 'Make a webhook active again (failCount 0)',
          params: WebhookParams,
          response: { 200: AdminWebhook },
        },
      }),
      async (request) =>
        present.adminWebhook(
          await service.reactivateWebhook(
            db,
            service.staffVisibility(request.staff),
            request.params.id,
            auditOf(request),
          ),
        ),
    );

    app.post(
      '/webhooks/:id/deactivate',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [400, 404],
        schema: {
          operationId: 'deactivateAdminWebhook',
          summary: "Stop a webhook's deliveries without deleting it (pending ones are abandoned)",
          params: WebhookParams,
          response: { 200: AdminWebhook },
        },
      }),
      async (request) =>
        present.adminWebhook(
          await service.deactivateWebhook(
            db,
            metrics,
            service.staffVisibility(request.staff),
            request.params.id,
            auditOf(request),
          ),
        ),
    );

    app.delete(
      '/webhooks/:id',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [400, 404],
        schema: {
          operationId: 'deleteAdminWebhook',
          summary: 'Remove a webhook; its pending deliveries are abandoned',
          params: WebhookParams,
          response: { 204: NoContent },
        },
      }),
      async (request, reply) => {
        await service.deleteWebhook(
          db,
          metrics,
          service.staffVisibility(request.staff),
          request.params.id,
          auditOf(request),
        );
        return reply.code(204).send(null);
      },
    );

    // What the back office does for a partner whose webhook is in trouble: read one webhook and one delivery with
    // its attempts, send a delivery again, rotate a leaked secret. The same rules as the partner routes.
    app.get(
      '/webhooks/:id',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [400, 404],
        schema: {
          operationId: 'getAdminWebhook',
          summary: 'One webhook with its health',
          params: WebhookParams,
          response: { 200: AdminWebhook },
        },
      }),
      async (request) =>
        present.adminWebhook(await service.getWebhook(db, service.staffVisibility(request.staff), request.params.id)),
    );

    app.get(
      '/webhooks/:id/deliveries/:deliveryId',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [400, 404],
        schema: {
          operationId: 'getAdminDelivery',
          summary: 'One delivery with its payload and every attempt (status, duration, answer)',
          params: DeliveryParams,
          response: { 200: DeliveryDetail },
        },
      }),
      async (request) => {
        const found = await service.getDelivery(
          db,
          service.staffVisibility(request.staff),
          request.params.id,
          request.params.deliveryId,
        );
        return deliveries.deliveryDetail(found.delivery, found.attempts);
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/retry',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [400, 404, 422],
        schema: {
          operationId: 'retryAdminDelivery',
          summary: 'Attempt a delivery again now (an inactive webhook gives 422)',
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
                service.staffVisibility(request.staff),
                request.params.id,
                request.params.deliveryId,
                auditOf(request),
              ),
            ),
          ),
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      route({
        ...STAFF_WEBHOOK_ACCESS,
        errors: [404],
        config: { noStore: true },
        schema: {
          operationId: 'rotateAdminWebhookSecret',
          summary:
            'Replace the signing secret (the new one is returned once); the old one keeps signing beside it for overlapSeconds (default 24 hours)',
          params: WebhookParams,
          body: RotateSecretRequest,
          response: { 200: RotatedWebhook },
        },
        preValidation: optionalBody,
      }),
      async (request) => {
        return present.rotatedWebhook(
          await service.rotateSecret(
            db,
            service.staffVisibility(request.staff),
            request.params.id,
            request.body.overlapSeconds,
            auditOf(request),
          ),
        );
      },
    );
  };
}
