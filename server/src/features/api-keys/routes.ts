import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { errorResponses, NoContent, UuidParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey } from './schemas.js';
import { createApiKey, listApiKeys, revokeApiKey, type KeyCaches } from './service.js';

const security = [{ staffJwt: [] }];

/** Partner API key management for staff (JWT): create, list own, revoke. */
export function apiKeyRoutes({ db, keys }: { db: Database; keys: KeyCaches }) {
  return async function routes(app: App) {
    app.post('/api-keys', {
      schema: {
        operationId: 'createApiKey', tags: ['api-keys'], summary: 'Create an API key; the raw key is in this response only', security, body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403) },
      },
    }, async (request, reply) => {
      const created = await createApiKey(db, request.staff, request.body);
      reply.header('Cache-Control', 'no-store');
      return reply.code(201).send(created);
    });

    app.get('/api-keys', {
      schema: { operationId: 'listApiKeys', tags: ['api-keys'], summary: 'The caller\'s API keys (revoked ones with isActive false); never the raw key', security, response: { 200: Type.Array(ApiKey), ...errorResponses(401) } },
    }, async (request) => listApiKeys(db, request.staff.staffUserId));

    app.delete('/api-keys/:id', {
      schema: {
        operationId: 'revokeApiKey', tags: ['api-keys'], summary: 'Revoke an API key (its owner, or a superadmin); effective at once on every instance', security, params: UuidParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    }, async (request, reply) => {
      const staff = request.staff;
      if (!(await revokeApiKey(db, keys, request.params.id, staff.role === 'superadmin' ? null : staff.staffUserId))) throw notFound('apiKey');
      return reply.code(204).send(null);
    });
  };
}
