import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery, NoContent } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { adminScope, page } from '../../auth/staff-access.js';
import { auditOf } from '../audit/service.js';
import {
  AdminRateSource,
  AdminRateSourceList,
  CreateRateSourceRequest,
  RATE_SOURCE_KINDS,
  UpdateRateSourceRequest,
} from './schemas.js';
import { createSource, deleteSource, getSource, listSources, updateSource } from './service.js';

const LIST: ListSpec = {
  filters: { kind: { type: 'enum', values: RATE_SOURCE_KINDS }, branchId: { type: 'integer' } },
  sorts: ['id', 'branchId', 'name', 'kind', 'lastSuccessAt', 'createdAt', 'updatedAt'],
};

/**
 * The market rate sources of the caller's branch (every branch for a superadmin): where offers priced from a source
 * take their reference (docs/rates.md). The URL follows the webhook URL rules, WEBHOOK_ALLOW_PRIVATE_URLS included.
 */
export function rateSourceRoutes({
  db,
  config,
}: {
  db: Database;
  config: { webhooks: { allowPrivateUrls: boolean } };
}) {
  const allowPrivateUrls = config.webhooks.allowPrivateUrls;
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.post(
      '/rate-sources',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'createAdminRateSource',
          summary: 'Register a market rate source; it is read at once, then every intervalSeconds',
          body: CreateRateSourceRequest,
          response: { 201: AdminRateSource },
        },
      }),
      async (request, reply) =>
        reply
          .code(201)
          .send(await createSource(db, auditOf(request), allowPrivateUrls, adminScope(request.staff), request.body)),
    );

    app.get(
      '/rate-sources',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listAdminRateSources',
          summary: 'List market rate sources with their last read',
          querystring: ListQuery,
          response: { 200: AdminRateSourceList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        return page(await listSources(db, adminScope(request.staff), params), params);
      },
    );

    app.get(
      '/rate-sources/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: {
          operationId: 'getAdminRateSource',
          summary: 'One market rate source with the pairs it read last',
          params: IdParams,
          response: { 200: AdminRateSource },
        },
      }),
      async (request) => getSource(db, adminScope(request.staff), request.params.id),
    );

    app.patch(
      '/rate-sources/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404],
        schema: {
          operationId: 'updateAdminRateSource',
          summary: 'Change a market rate source; a new kind, url or interval is read at once',
          params: IdParams,
          body: UpdateRateSourceRequest,
          response: { 200: AdminRateSource },
        },
      }),
      async (request) =>
        updateSource(
          db,
          auditOf(request),
          allowPrivateUrls,
          adminScope(request.staff),
          request.params.id,
          request.body,
        ),
    );

    app.delete(
      '/rate-sources/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [404, 409],
        schema: {
          operationId: 'deleteAdminRateSource',
          summary: 'Remove a market rate source; refused (409) while offers are priced from it',
          params: IdParams,
          response: { 204: NoContent },
        },
      }),
      async (request, reply) => {
        await deleteSource(db, auditOf(request), adminScope(request.staff), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
