import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { errorResponses, IdParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import * as repo from './repository.js';
import { Client, CreateClientRequest, UpdateClientRequest } from './schemas.js';
import * as service from './service.js';

const security = [{ apiKey: [] }];
const tags = ['clients'];

/** Client accounts, associated with the exchanges of the key that created them (decisions section 7). */
export function clientRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.post('/clients', {
      config: { permission: 'clients:write' },
      schema: {
        operationId: 'createClient', tags, summary: 'Register a client', security, body: CreateClientRequest,
        response: { 201: Client, ...errorResponses(400, 401, 403, 429) },
      },
    }, async (request, reply) => {
      const client = await service.uniqueEmail(() => db.transaction().execute((tx) => service.createClient(tx, request.apiKey, request.body)));
      return reply.code(201).send(service.present(client));
    });

    app.get('/clients/:id', {
      config: { permission: 'clients:read' },
      schema: { operationId: 'getClient', tags, summary: 'One client', security, params: IdParams, response: { 200: Client, ...errorResponses(401, 403, 404, 429) } },
    }, async (request) => {
      const client = await repo.findClient(db, request.apiKey, request.params.id);
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
