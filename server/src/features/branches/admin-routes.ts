import type { Database } from '../../db/database.js';
import { parseListQuery, type ListSpec } from '../../http/list-query.js';
import { errorResponses, IdParams, ListQuery } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Branch, BranchList, CreateBranchRequest, UpdateBranchRequest } from './schemas.js';
import { createBranch, listBranches, updateBranch } from './service.js';
import { auditOf } from '../audit/service.js';
import { page, security, SUPERADMIN_ONLY } from '../../auth/staff-access.js';

const LIST: ListSpec = { filters: {}, sorts: ['id', 'name', 'createdAt', 'updatedAt'] };

/** Branches: the partition of the whole network, so only a superadmin manages them. */
export function branchRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    const config = { staffRoles: SUPERADMIN_ONLY };

    app.post('/branches', {
      config,
      schema: { operationId: 'createBranch', tags: ['admin'], summary: 'Create a branch (superadmin)', security, body: CreateBranchRequest, response: { 201: Branch, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => reply.code(201).send(await createBranch(db, auditOf(request), request.body)));

    app.patch('/branches/:id', {
      config,
      schema: {
        operationId: 'updateBranch', tags: ['admin'], summary: 'Rename a branch or make it a sandbox (superadmin)', security, params: IdParams, body: UpdateBranchRequest,
        response: { 200: Branch, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => updateBranch(db, auditOf(request), request.params.id, request.body));

    app.get('/branches', {
      config,
      schema: { operationId: 'listBranches', tags: ['admin'], summary: 'List branches (superadmin)', security, querystring: ListQuery, response: { 200: BranchList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      return page(await listBranches(db, params), params);
    });
  };
}
