import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { NoContent, optionalBody, UuidParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { auditOf } from '../audit/service.js';
import { rollApiKey } from './roll.js';
import {
  ApiKey,
  CreateApiKeyRequest,
  CreatedApiKey,
  RollApiKeyRequest,
  RolledApiKey,
  UpdateApiKeyRequest,
} from './schemas.js';
import { createApiKey, listApiKeys, revokeApiKey, updateApiKey, type KeyCaches } from './service.js';

const route = staffRoute('api-keys');

/**
 * Partner API key management for staff (JWT): create, list own, roll, revoke. A staff user reaches its own personal
 * keys here, a superadmin every key (repository.ts ownKeys); admins manage their branch's in admin-routes.ts.
 */
export function apiKeyRoutes({
  db,
  keys,
  config,
}: {
  db: Database;
  keys: KeyCaches;
  config: { ownerLimits: { personalKeysPerStaff: number } };
}) {
  return async function routes(app: App) {
    app.post(
      '/api-keys',
      route({
        // Every role may create its personal keys; that only a superadmin creates the other types is the service's rule (403).
        roles: EVERY_ROLE,
        errors: [403, 422],
        config: { noStore: true },
        schema: {
          operationId: 'createApiKey',
          summary: 'Create an API key; the raw key is in this response only',
          body: CreateApiKeyRequest,
          response: { 201: CreatedApiKey },
        },
      }),
      async (request, reply) => {
        const created = await createApiKey(
          db,
          auditOf(request),
          request.staff,
          request.body,
          config.ownerLimits.personalKeysPerStaff,
        );
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/api-keys',
      route({
        roles: EVERY_ROLE,
        schema: {
          operationId: 'listApiKeys',
          summary:
            "The caller's API keys: its personal keys, and for a superadmin the branch and public keys it created (revoked ones with isActive false); never the raw key",
          response: { 200: Type.Array(ApiKey) },
        },
      }),
      async (request) => listApiKeys(db, request.staff),
    );

    app.post(
      '/api-keys/:id/roll',
      route({
        roles: EVERY_ROLE,
        errors: [404, 422],
        config: { noStore: true },
        preValidation: optionalBody,
        schema: {
          operationId: 'rollApiKey',
          params: UuidParams,
          body: RollApiKeyRequest,
          summary:
            "Roll a key (one's own personal key, or any key for a superadmin): a new raw key of the same type, scope and owner, returned once; the old key works until expiresAt",
          response: { 201: RolledApiKey },
        },
      }),
      async (request, reply) => {
        const staff = request.staff;
        const rolled = await rollApiKey(
          db,
          keys,
          auditOf(request),
          { ownerId: staff.role === 'superadmin' ? null : staff.staffUserId },
          request.params.id,
          request.body,
        );
        return reply.code(201).send(rolled);
      },
    );

    app.patch(
      '/api-keys/:id',
      route({
        roles: EVERY_ROLE,
        errors: [404],
        schema: {
          operationId: 'updateApiKey',
          summary: "Set a public key's allowed origins (a superadmin); effective at once on every instance",
          params: UuidParams,
          body: UpdateApiKeyRequest,
          response: { 200: ApiKey },
        },
      }),
      async (request) => {
        const staff = request.staff;
        return updateApiKey(
          db,
          keys,
          auditOf(request),
          request.params.id,
          staff.role === 'superadmin' ? null : staff.staffUserId,
          request.body,
        );
      },
    );

    app.delete(
      '/api-keys/:id',
      route({
        roles: EVERY_ROLE,
        errors: [400, 404],
        schema: {
          operationId: 'revokeApiKey',
          summary:
            "Revoke an API key (one's own personal key, or any key for a superadmin); effective at once on every instance",
          params: UuidParams,
          response: { 204: NoContent },
        },
      }),
      async (request, reply) => {
        const staff = request.staff;
        if (
          !(await revokeApiKey(
            db,
            keys,
            request.params.id,
            staff.role === 'superadmin' ? null : staff.staffUserId,
            auditOf(request),
          ))
        )
          throw notFound('apiKey');
        return reply.code(204).send(null);
      },
    );
  };
}
