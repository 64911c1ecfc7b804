import type { Database } from '../../db/database.js';
import { idempotentResponder, type IdempotencyOptions } from '../idempotency/respond.js';
import { IdempotencyHeaders } from '../idempotency/schemas.js';
import { notFound } from '../../http/errors.js';
import { listMeta, parseListQuery, type ListSpec } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Client, ClientList, CreateClientRequest, UpdateClientRequest } from './schemas.js';
import * as service from './service.js';

const security = [{ apiKey: [] }];

/** Exact lookups a partner makes before creating a client (docs/integration.md): emails are matched lower-case, as stored. */
export const CLIENT_LIST: ListSpec = {
  filters: { email: { type: 'string', maxLength: 1000, lowerCase: true }, phone: { type: 'string', maxLength: 100 } },
  sorts: ['id', 'createdAt', 'updatedAt'],
};
const tags = ['clients'];

/** Client accounts, associated with the exchanges of the key that created them (docs/decisions.md, "Clients"). */
export function clientRoutes({ db, config }: { db: Database; config: { idempotency: IdempotencyOptions } }) {
  const respond = idempotentResponder(db, config.idempotency);
  return async function routes(app: App) {
    app.post('/clients', {
      config: { permission: 'clients:write' },
      schema: {
        operationId: 'createClient', tags, summary: 'Register a client', security, body: CreateClientRequest, headers: IdempotencyHeaders,
        response: { 201: Client, ...errorResponses(400, 401, 403, 422, 429) },
      },
    }, async (request, reply) => service.uniqueEmail(() => respond(request, reply, 201, async (tx) => {
      const create = (t: typeof tx & {}) => service.createClient(t, request.apiKey, request.body);
      return service.present(await (tx ? create(tx) : db.transaction().execute(create)));
    })));

    app.get('/clients', {
      config: { permission: 'clients:read' },
      schema: {
        operationId: 'listClients', tags, summary: 'Clients in the key\'s scope, paginated; filter by exact email or phone', security, querystring: ListQuery,
        response: { 200: ClientList, ...errorResponses(400, 401, 403, 429) },
      },
    }, async (request) => {
      const params = parseListQuery(request.query, CLIENT_LIST);
      const page = await service.listClients(db, request.apiKey, params);
      return { data: page.rows.map(service.present), meta: listMeta(page, params) };
    });

    app.get('/clients/:id', {
      config: { permission: 'clients:read', etag: true },
      schema: { operationId: 'getClient', tags, summary: 'One client', security, params: IdParams, response: { 200: Client, ...errorResponses(401, 403, 404, 429) } },
    }, async (request) => {
      const client = await service.findClient(db, request.apiKey, request.params.id);
      if (!client) throw notFound('client');
      return service.present(client);
    });

    app.patch('/clients/:id', {
      config: { permission: 'clients:write' },
      schema: {
        operationId: 'updateClient', tags, summary: 'Update the given fields of a client', security, params: IdParams, body: UpdateClientRequest,
        response: { 200: Client, ...errorResponses(400, 401, 403, 404, 429) },
      },
    }, async (request) => {
      const client = await service.uniqueEmail(() => service.updateClient(db, request.apiKey, request.params.id, request.body));
      return service.present(client);
    });
  };
}
