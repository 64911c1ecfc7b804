import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { fixedListParams, listMeta } from '../../http/list-query.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { listEnvelope, ListQuery, NoContent, optionalBody, RowId, StringEnum, UuidParams } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { auditOf } from '../audit/service.js';
import { rollApiKey } from './roll.js';
import { ApiKey, RollApiKeyRequest, RolledApiKey } from './schemas.js';
import { listBranchKeys, revokeBranchKey, type KeyCaches } from './service.js';

const route = staffRoute('admin');

const BranchKey = Type.Object({
  ...ApiKey.properties,
  staffUserId: Type.Integer({
    description: 'The staff user who created the key (for a personal key, whose scope it acts with)',
  }),
  ownerEmail: Type.String(),
});
const KeyQuery = Type.Object({
  type: Type.Optional(StringEnum(['personal', 'branch', 'public'])),
  branchId: Type.Optional(RowId()),
  isActive: Type.Optional(Type.Boolean()),
  skip: ListQuery.properties.skip,
  limit: ListQuery.properties.limit,
  cursor: ListQuery.properties.cursor,
});

/**
 * The keys of a branch for its admin (every key for a superadmin): its branch and public keys and its staff's
 * personal keys, to see which are used and to revoke one that leaked. Creating branch and public keys, and rolling
 * any key but one's own personal key (a roll hands over a raw key), stay a superadmin's.
 */
export function apiKeyAdminRoutes({ db, keys }: { db: Database; keys: KeyCaches }) {
  return async function routes(app: App) {
    app.get(
      '/api-keys',
      route({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listBranchApiKeys',
          summary: 'API keys of the branch (every branch for a superadmin), newest first; never the raw key',
          querystring: KeyQuery,
          response: { 200: listEnvelope(BranchKey) },
        },
      }),
      async (request) => {
        // Undeclared query parameters were refused before this (http/query-keys.ts): the rest are the filters.
        const { skip, limit, cursor, ...filter } = request.query;
        const params = fixedListParams({ skip, limit, cursor }, filter, [['createdAt', 'DESC']]);
        const page = await listBranchKeys(db, request.staff.branchId, params);
        return { data: page.rows, meta: listMeta(page, params) };
      },
    );

    app.post(
      '/api-keys/:id/roll',
      route({
        roles: BRANCH_ADMINS,
        errors: [404, 422],
        config: { noStore: true },
        preValidation: optionalBody,
        schema: {
          operationId: 'rollBranchApiKey',
          params: UuidParams,
          body: RollApiKeyRequest,
          summary:
            'Roll a key of the branch (an admin: only its own personal keys, 403 for others; a superadmin: any key): a new raw key of the same type, scope and owner, returned once; the old key works until expiresAt',
          response: { 201: RolledApiKey },
        },
      }),
      async (request, reply) => {
        const { branchId, role, staffUserId } = request.staff;
        const reach = role === 'superadmin' ? { branchId } : { branchId, rollerId: staffUserId };
        const rolled = await rollApiKey(db, keys, auditOf(request), reach, request.params.id, request.body);
        return reply.code(201).send(rolled);
      },
    );

    app.delete(
      '/api-keys/:id',
      route({
        roles: BRANCH_ADMINS,
        errors: [400, 404],
        schema: {
          operationId: 'revokeBranchApiKey',
          summary: 'Revoke a key of the branch; effective at once on every instance',
          params: UuidParams,
          response: { 204: NoContent },
        },
      }),
      async (request, reply) => {
        if (!(await revokeBranchKey(db, keys, request.staff.branchId, request.params.id, auditOf(request))))
          throw notFound('apiKey');
        return reply.code(204).send(null);
      },
    );
  };
}
