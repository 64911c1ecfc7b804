import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses, NoContent, UuidParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { listApiKeysOfStaff, revokeApiKey } from './repository.js';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey } from './schemas.js';
import { apiKeyView, createApiKey } from './service.js';

const security = [{ staffJwt: [] }];

/** Partner API key management for staff (JWT): create, list own, revoke. */
export function apiKeyRoutes(ctx: AppContext) {
  return async function routes(app: App) {
    app.post('/api-keys', {
      schema: {
        tags: ['api-keys'], summary: 'Create an API key; the raw key is in this response only', security, body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403) },
      },
    }, async (request, reply) => {
      const created = await createApiKey(ctx.db, request.staff, request.body);
      reply.header('Cache-Control', 'no-store');
      return reply.code(201).send(created);
    });

    app.get('/api-keys', {
      schema: { tags: ['api-keys'], summary: 'The caller\'s API keys (revoked ones with isActive false); never the raw key', security, response: { 200: Type.Array(ApiKey), ...errorResponses(401) } },
    }, async (request) => (await listApiKeysOfStaff(ctx.db, request.staff.staffUserId)).map(apiKeyView));

    app.delete('/api-keys/:id', {
      schema: {
        tags: ['api-keys'], summary: 'Revoke an API key (its owner, or a superadmin); effective at once on every instance', security, params: UuidParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    }, async (request, reply) => {
      const staff = request.staff;
      const revoked = await revokeApiKey(ctx.db, request.params.id, staff.role === 'superadmin' ? null : staff.staffUserId);
      if (!revoked) throw notFound('apiKey');
      await ctx.keys.invalidate('api key revoked');
      return reply.code(204).send(null);
    });
  };
}
