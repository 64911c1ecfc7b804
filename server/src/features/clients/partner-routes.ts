import type { Database } from '../../db/database.js';
import { byApiKey, idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { notFound } from '../../http/errors.js';
import { listMeta, parseListQuery, type ListSpec } from '../../http/list-query.js';
import { partnerRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Client, ClientList, CreateClientRequest, UpdateClientRequest } from './schemas.js';
import { present } from './presenters.js';
import * as service from './service.js';

/** Exact lookups a partner makes before creating a client (docs/integration.md): emails are matched lower-case, as stored. */
export const CLIENT_LIST: ListSpec = {
  filters: { email: { type: 'string', maxLength: 1000, lowerCase: true }, phone: { type: 'string', maxLength: 100 } },
  sorts: ['id', 'createdAt', 'updatedAt'],
};
const route = partnerRoute('clients');

/** Client accounts, associated with the exchanges of the key that created them (docs/decisions.md, "Clients"). */
export function clientRoutes({ db, config }: { db: Database; config: { idempotency: IdempotencyOptions } }) {
  const respond = idempotentResponder(db, config.idempotency, byApiKey);
  return async function routes(app: App) {
    app.post(
      '/clients',
      route({
        permission: 'clients:write',
        errors: [422],
        schema: {
          operationId: 'createClient',
          summary: 'Register a client',
          body: CreateClientRequest,
          headers: IdempotencyHeaders,
          response: { 201: Client },
        },
      }),
      async (request, reply) =>
        service.uniqueEmail(() =>
          respond(request, reply, 201, async (tx) => {
            const create = (t: typeof tx & {}) => service.createClient(t, request.apiKey, request.body);
            return present(await (tx ? create(tx) : db.transaction().execute(create)));
          }),
        ),
    );

    app.get(
      '/clients',
      route({
        permission: 'clients:read',
        schema: {
          operationId: 'listClients',
          summary: "Clients in the key's scope, paginated; filter by exact email or phone",
          querystring: ListQuery,
          response: { 200: ClientList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, CLIENT_LIST);
        const page = await service.listClients(db, request.apiKey, params);
        return { data: page.rows.map(present), meta: listMeta(page, params) };
      },
    );

    app.get(
      '/clients/:id',
      route({
        permission: 'clients:read',
        errors: [404],
        config: { etag: true },
        schema: { operationId: 'getClient', summary: 'One client', params: IdParams, response: { 200: Client } },
      }),
      async (request) => {
        const client = await service.findClient(db, request.apiKey, request.params.id);
        if (!client) throw notFound('client');
        return present(client);
      },
    );

    app.patch(
      '/clients/:id',
      route({
        permission: 'clients:write',
        errors: [404],
        schema: {
          operationId: 'updateClient',
          summary: 'Update the given fields of a client',
          params: IdParams,
          body: UpdateClientRequest,
          response: { 200: Client },
        },
      }),
      async (request) => {
        const client = await service.uniqueEmail(() =>
          service.updateClient(db, request.apiKey, request.params.id, request.body),
        );
        return present(client);
      },
    );
  };
}
