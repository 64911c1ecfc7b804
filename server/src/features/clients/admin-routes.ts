import { Type } from 'typebox';
import type { Database, Tx } from '../../db/database.js';
import { byStaffUser, idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { notFound } from '../../http/errors.js';
import { fixedListParams, listMeta } from '../../http/list-query.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, listEnvelope, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Client, CreateClientRequest, UpdateClientRequest } from './schemas.js';
import { auditOf } from '../audit/service.js';
import { present } from './presenters.js';
import * as service from './service.js';

const route = staffRoute('admin');

const AdminClient = Type.Object({ ...Client.properties, branchId: Type.Integer() });
const ClientSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200, description: "Part of the client's name, email or phone" })),
  skip: ListQuery.properties.skip,
  limit: ListQuery.properties.limit,
  cursor: ListQuery.properties.cursor,
});

const view = (c: Parameters<typeof present>[0] & { branch_id: number }) =>
  Object.assign(present(c), { branchId: c.branch_id });

/**
 * Clients in the back office, with the partner API's scope: an admin the clients of its branch, a superadmin
 * every one, an operator (with clients:read / clients:write) the clients of its exchanges.
 */
export function clientAdminRoutes({ db, config }: { db: Database; config: { idempotency: IdempotencyOptions } }) {
  const respond = idempotentResponder(db, config.idempotency, byStaffUser);
  return async function routes(app: App) {
    app.get(
      '/clients',
      route({
        permission: 'clients:read',
        schema: {
          operationId: 'listAdminClients',
          summary: 'Clients in scope, newest first, optionally matching a text',
          querystring: ClientSearchQuery,
          response: { 200: listEnvelope(AdminClient) },
        },
      }),
      async (request) => {
        const params = fixedListParams(request.query, {}, [['id', 'DESC']]);
        const page = await service.searchClients(db, request.staff, request.query.q, params);
        return { data: page.rows.map(view), meta: listMeta(page, params) };
      },
    );

    app.get(
      '/clients/:id',
      route({
        permission: 'clients:read',
        errors: [404],
        schema: {
          operationId: 'getAdminClient',
          summary: 'One client',
          params: IdParams,
          response: { 200: AdminClient },
        },
      }),
      async (request) => {
        const client = await service.findClient(db, request.staff, request.params.id);
        if (!client) throw notFound('client');
        return view(client);
      },
    );

    app.post(
      '/clients',
      route({
        permission: 'clients:write',
        errors: [422],
        schema: {
          operationId: 'createAdminClient',
          summary: "Register a client (a walk-in client of a counter order), in the caller's scope",
          body: CreateClientRequest,
          headers: IdempotencyHeaders,
          response: { 201: AdminClient },
        },
      }),
      async (request, reply) =>
        service.uniqueEmail(() =>
          respond(request, reply, 201, async (tx) => {
            const create = (t: Tx) => service.createClient(t, request.staff, request.body, auditOf(request));
            return view(await (tx ? create(tx) : db.transaction().execute(create)));
          }),
        ),
    );

    app.patch(
      '/clients/:id',
      route({
        permission: 'clients:write',
        errors: [404],
        schema: {
          operationId: 'updateAdminClient',
          summary: 'Update the given fields of a client',
          params: IdParams,
          body: UpdateClientRequest,
          response: { 200: AdminClient },
        },
      }),
      async (request) =>
        view(
          await service.uniqueEmail(() =>
            service.updateClient(db, request.staff, request.params.id, request.body, auditOf(request)),
          ),
        ),
    );
  };
}
