import type { AppContext } from '../../../context.js';
import { pageQuery } from '../../../db/list.js';
import { badRequest } from '../../../http/errors.js';
import { parseListQuery, type ListSpec } from '../../../http/list-query.js';
import { errorResponses, ListQuery } from '../../../http/schemas.js';
import type { App } from '../../../http/types.js';
import { uniqueViolation } from '../../../db/errors.js';
import { page, security, SUPERADMIN_ONLY } from '../common.js';
import { Branch, BranchList, CreateBranchRequest } from './schemas.js';

const COLUMNS: Record<string, string> = { id: 'id', name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' };
const LIST: ListSpec = { filters: {}, sorts: ['id', 'name', 'createdAt', 'updatedAt'] };
// Branches are the partition itself: the list has no scope (superadmin only).
const branchesPage = pageQuery((db, _: Record<string, never>) => db.selectFrom('branches'), COLUMNS, (qb) => qb.selectAll());
const view = (b: { id: number; name: string; created_at: Date; updated_at: Date }) => ({ id: b.id, name: b.name, createdAt: b.created_at, updatedAt: b.updated_at });

/** Branches: the partition of the whole network, so only a superadmin manages them. */
export function branchRoutes(ctx: AppContext) {
  return async function routes(app: App) {
    const config = { staffRoles: SUPERADMIN_ONLY };

    app.post('/branches', {
      config,
      schema: { tags: ['admin'], summary: 'Create a branch (superadmin)', security, body: CreateBranchRequest, response: { 201: Branch, ...errorResponses(400, 401, 403) } },
    }, async (request, reply) => {
      try {
        const row = await ctx.db.insertInto('branches').values({ name: request.body.name.trim() }).returningAll().executeTakeFirstOrThrow();
        return reply.code(201).send(view(row));
      } catch (err) {
        if (uniqueViolation(err) === 'branches_name_key') throw badRequest('A branch with this name already exists', { name: 'alreadyExists' });
        throw err;
      }
    });

    app.get('/branches', {
      config,
      schema: { tags: ['admin'], summary: 'List branches (superadmin)', security, querystring: ListQuery, response: { 200: BranchList, ...errorResponses(400, 401, 403) } },
    }, async (request) => {
      const params = parseListQuery(request.query, LIST);
      const { rows, total } = await branchesPage(ctx.db, {}, params);
      return page(rows.map(view), total, params);
    });
  };
}
