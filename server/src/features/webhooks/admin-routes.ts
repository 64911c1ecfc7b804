import { listMeta } from '../../http/list-query.js';
import type { Database } from '../../db/database.js';
import type { Metrics } from '../../http/metrics.js';
import { errorResponses, ListQuery, NoContent } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { EVERY_ROLE, requirePermission } from '../../auth/staff-permissions.js';
import { auditOf } from '../audit/service.js';
import * as present from './presenters.js';
import { deliveryPage, listParams, OLDEST_FIRST } from './partner-routes.js';
import { DeliveryList } from '../delivery/schemas.js';
import { AdminWebhook, AdminWebhookList, WebhookParams } from './schemas.js';
import { ownerEmails } from './repository.js';
import * as service from './service.js';

const ADMIN_WEBHOOK_LIST = {
  filters: { isActive: { type: 'boolean' as const }, branchId: { type: 'integer' as const }, staffUserId: { type: 'integer' as const } },
  sorts: ['id', 'url', 'isActive', 'failCount', 'createdAt', 'updatedAt'],
};

const security = [{ staffJwt: [] }];
const tags = ['admin'];
/** Admins see their branch's webhooks, a superadmin every one, an operator with webhooks:manage its own. */
export const STAFF_WEBHOOK_ACCESS = { config: { staffRoles: EVERY_ROLE }, preHandler: requirePermission('webhooks:manage') };

/** Back-office views of the webhooks the staff user may see (service.staffVisibility), and stopping one. */
export function webhookAdminRoutes({ db, metrics }: { db: Database; metrics: Metrics }) {
  return async function routes(app: App) {
    app.get('/webhooks', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: { operationId: 'listAdminWebhooks', tags, summary: 'Webhooks of the branch, with their owners', security, querystring: ListQuery, response: { 200: AdminWebhookList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = listParams(request.query, ADMIN_WEBHOOK_LIST, OLDEST_FIRST);
      const page = await service.listWebhooks(db, service.staffVisibility(request.staff), params);
      const emails = await ownerEmails(db, page.rows.flatMap((w) => (w.staff_user_id === null ? [] : [w.staff_user_id])));
      return { data: page.rows.map((w) => present.listedAdminWebhook(w, emails)), meta: listMeta(page, params) };
    });

    app.get('/webhooks/:id/deliveries', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: { operationId: 'listAdminWebhookDeliveries', tags, summary: 'Delivery log of a webhook, newest first', security, params: WebhookParams, querystring: ListQuery, response: { 200: DeliveryList, ...errorResponses(400, 401, 403, 404) } },
    }, async (request) => deliveryPage(db, service.staffVisibility(request.staff), request.params.id, request.query));

    app.post('/webhooks/:id/reactivate', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: { operationId: 'reactivateAdminWebhook', tags, summary: 'Make a webhook active again (failCount 0)', security, params: WebhookParams, response: { 200: AdminWebhook, ...errorResponses(400, 401, 403, 404) } },
    }, async (request) => present.adminWebhook(await service.reactivateWebhook(db, service.staffVisibility(request.staff), request.params.id, auditOf(request))));

    app.post('/webhooks/:id/deactivate', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: { operationId: 'deactivateAdminWebhook', tags, summary: 'Stop a webhook\'s deliveries without deleting it (pending ones are abandoned)', security, params: WebhookParams, response: { 200: AdminWebhook, ...errorResponses(400, 401, 403, 404) } },
    }, async (request) => present.adminWebhook(await service.deactivateWebhook(db, metrics, service.staffVisibility(request.staff), request.params.id, auditOf(request))));

    app.delete('/webhooks/:id', {
      ...STAFF_WEBHOOK_ACCESS,
      schema: { operationId: 'deleteAdminWebhook', tags, summary: 'Remove a webhook; its pending deliveries are abandoned', security, params: WebhookParams, response: { 204: NoContent, ...errorResponses(400, 401, 403, 404) } },
    }, async (request, reply) => {
      await service.deleteWebhook(db, metrics, service.staffVisibility(request.staff), request.params.id, auditOf(request));
      return reply.code(204).send(null);
    });
  };
}
