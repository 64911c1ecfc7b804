import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { errorResponses, NoContent, optionalBody, UuidParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { auditOf } from '../audit/service.js';
import { rollApiKey } from './roll.js';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey, RollApiKeyRequest, RolledApiKey, UpdateApiKeyRequest } from './schemas.js';
import { createApiKey, listApiKeys, revokeApiKey, updateApiKey, type KeyCaches } from './service.js';

const security = [{ staffJwt: [] }];

/**
 * Partner API key management for staff (JWT): create, list own, roll, revoke. A staff user reaches its own personal
 * keys here, a superadmin every key (repository.ts ownKeys); admins manage their branch's in admin-routes.ts.
 */
export function apiKeyRoutes({ db, keys, config }: { db: Database; keys: KeyCaches; config: { ownerLimits: { personalKeysPerStaff: number } } }) {
  return async function routes(app: App) {
    app.post('/api-keys', {
      config: { noStore: true },
      schema: {
        operationId: 'createApiKey', tags: ['api-keys'], summary: 'Create an API key; the raw key is in this response only', security, body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey, ...errorResponses(400, 401, 403, 422) },
      },
    }, async (request, reply) => {
      const created = await createApiKey(db, auditOf(request), request.staff, request.body, config.ownerLimits.personalKeysPerStaff);
      return reply.code(201).send(created);
    });

    app.get('/api-keys', {
      schema: { operationId: 'listApiKeys', tags: ['api-keys'], summary: 'The caller\'s API keys: its personal keys, and for a superadmin the branch and public keys it created (revoked ones with isActive false); never the raw key', security, response: { 200: Type.Array(ApiKey), ...errorResponses(401) } },
    }, async (request) => listApiKeys(db, request.staff));

    app.post('/api-keys/:id/roll', {
      config: { noStore: true },
      preValidation: optionalBody,
      schema: {
        operationId: 'rollApiKey', tags: ['api-keys'], security, params: UuidParams, body: RollApiKeyRequest,
        summary: 'Roll a key (one\'s own personal key, or any key for a superadmin): a new raw key of the same type, scope and owner, returned once; the old key works until expiresAt',
        response: { 201: RolledApiKey, ...errorResponses(400, 401, 404, 422) },
      },
    }, async (request, reply) => {
      const staff = request.staff;
      const rolled = await rollApiKey(db, keys, auditOf(request), { ownerId: staff.role === 'superadmin' ? null : staff.staffUserId }, request.params.id, request.body);
      return reply.code(201).send(rolled);
    });

    app.patch('/api-keys/:id', {
      schema: {
        operationId: 'updateApiKey', tags: ['api-keys'], summary: 'Set a public key\'s allowed origins (a superadmin); effective at once on every instance',
        security, params: UuidParams, body: UpdateApiKeyRequest, response: { 200: ApiKey, ...errorResponses(400, 401, 404) },
      },
    }, async (request) => {
      const staff = request.staff;
      return updateApiKey(db, keys, auditOf(request), request.params.id, staff.role === 'superadmin' ? null : staff.staffUserId, request.body);
    });

    app.delete('/api-keys/:id', {
      schema: {
        operationId: 'revokeApiKey', tags: ['api-keys'], summary: 'Revoke an API key (one\'s own personal key, or any key for a superadmin); effective at once on every instance', security, params: UuidParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 404) },
      },
    }, async (request, reply) => {
      const staff = request.staff;
      if (!(await revokeApiKey(db, keys, request.params.id, staff.role === 'superadmin' ? null : staff.staffUserId, auditOf(request)))) throw notFound('apiKey');
      return reply.code(204).send(null);
    });
  };
}
