import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { fixedListParams, listMeta } from '../../http/list-query.js';
import { errorResponses, IdParams, listEnvelope, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { EVERY_ROLE, requirePermission } from '../../auth/staff-permissions.js';
import { Client, UpdateClientRequest } from './schemas.js';
import { auditOf } from '../audit/service.js';
import * as service from './service.js';

const security = [{ staffJwt: [] }];
const tags = ['admin'];
const config = { staffRoles: EVERY_ROLE };

const AdminClient = Type.Object({ ...Client.properties, branchId: Type.Integer() });
const ClientSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the client\'s name, email or phone' })),
  skip: ListQuery.properties.skip,
  limit: ListQuery.properties.limit,
  cursor: ListQuery.properties.cursor,
});

const view = (c: Parameters<typeof service.present>[0] & { branch_id: number }) => Object.assign(service.present(c), { branchId: c.branch_id });

/**
 * Clients in the back office, with the partner API's scope: an admin the clients of its branch, a superadmin
 * every one, an operator (with clients:read / clients:write) the clients of its exchanges.
 */
export function clientAdminRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get('/clients', {
      config, preHandler: requirePermission('clients:read'),
      schema: {
        operationId: 'listAdminClients', tags, summary: 'Clients in scope, newest first, optionally matching a text',
        security, querystring: ClientSearchQuery, response: { 200: listEnvelope(AdminClient), ...errorResponses(400, 401, 403) },
      },
    }, async (request) => {
      const params = fixedListParams(request.query, {}, [['id', 'DESC']]);
      const page = await service.searchClients(db, request.staff, request.query.q, params);
      return { data: page.rows.map(view), meta: listMeta(page, params) };
    });

    app.get('/clients/:id', {
      config, preHandler: requirePermission('clients:read'),
      schema: { operationId: 'getAdminClient', tags, summary: 'One client', security, params: IdParams, response: { 200: AdminClient, ...errorResponses(401, 403, 404) } },
    }, async (request) => {
      const client = await service.findClient(db, request.staff, request.params.id);
      if (!client) throw notFound('client');
      return view(client);
    });

    app.patch('/clients/:id', {
      config, preHandler: requirePermission('clients:write'),
      schema: {
        operationId: 'updateAdminClient', tags, summary: 'Update the given fields of a client', security, params: IdParams, body: UpdateClientRequest,
        response: { 200: AdminClient, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => view(await service.uniqueEmail(() => service.updateClient(db, request.staff, request.params.id, request.body, auditOf(request)))));
  };
}
