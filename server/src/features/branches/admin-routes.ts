import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { SUPERADMIN_ONLY } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Branch, BranchList, CreateBranchRequest, UpdateBranchRequest } from './schemas.js';
import { createBranch, listBranches, updateBranch } from './service.js';
import { auditOf } from '../audit/service.js';
import { page } from '../../auth/staff-access.js';

const LIST: ListSpec = { filters: {}, sorts: ['id', 'name', 'createdAt', 'updatedAt'] };

/** Branches: the partition of the whole network, so only a superadmin manages them. */
export function branchRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const route = staffRoute('admin');

    app.post(
      '/branches',
      route({
        roles: SUPERADMIN_ONLY,
        schema: {
          operationId: 'createBranch',
          summary: 'Create a branch (superadmin)',
          body: CreateBranchRequest,
          response: { 201: Branch },
        },
      }),
      async (request, reply) => reply.code(201).send(await createBranch(db, auditOf(request), request.body)),
    );

    app.patch(
      '/branches/:id',
      route({
        roles: SUPERADMIN_ONLY,
        errors: [404],
        schema: {
          operationId: 'updateBranch',
          summary: 'Rename a branch or make it a sandbox (superadmin)',
          params: IdParams,
          body: UpdateBranchRequest,
          response: { 200: Branch },
        },
      }),
      async (request) => updateBranch(db, auditOf(request), request.params.id, request.body),
    );

    app.get(
      '/branches',
      route({
        roles: SUPERADMIN_ONLY,
        schema: {
          operationId: 'listBranches',
          summary: 'List branches (superadmin)',
          querystring: ListQuery,
          response: { 200: BranchList },
        },
      }),
      async (request) => {
        const params = parseListQuery(request.query, LIST);
        return page(await listBranches(db, params), params);
      },
    );
  };
}
