import { listMeta } from '../../http/list-query.js';
import type { Database } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import { BRANCH_ADMINS } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import type { App } from '../../http/types.js';
import { AuditList, AuditQuery, type AuditQueryInput } from './schemas.js';
import { listAudit } from './service.js';

/** The query's filters as a list request: equality on each given field, a half-open period on createdAt. */
export function auditListParams(q: AuditQueryInput): ListParams {
  const filter: ListParams['filter'] = {};
  if (q.entityType !== undefined) filter.entityType = q.entityType;
  if (q.entityId !== undefined) filter.entityId = q.entityId.toLowerCase();
  if (q.actor !== undefined) filter.actor = q.actor;
  if (q.staffUserId !== undefined) filter.staffUserId = q.staffUserId;
  if (q.action !== undefined) filter.action = q.action;
  if (q.from !== undefined || q.to !== undefined) {
    filter.createdAt = {};
    if (q.from !== undefined) filter.createdAt.gte = new Date(q.from);
    if (q.to !== undefined) filter.createdAt.lt = new Date(q.to);
  }
  // In time order (the id breaks ties the same way), so that a period and its order are one range of an index: in id
  // order, the changes since T oldest first walked every older change first.
  return {
    skip: q.skip ?? 0,
    limit: q.limit ?? 25,
    filter,
    sort: [['createdAt', q.sort === 'oldest' ? 'ASC' : 'DESC']],
  };
}

/**
 * The audit log (docs/decisions.md, "Audit log"): a superadmin reads every row, an admin its branch's; operators
 * get 403, as for the rest of the branch's administration.
 */
export function auditRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get(
      '/audit',
      staffRoute('admin')({
        roles: BRANCH_ADMINS,
        schema: {
          operationId: 'listAudit',
          summary: 'Who changed what and when, newest first (superadmin: every branch; admin: its branch)',
          querystring: AuditQuery,
          response: { 200: AuditList },
        },
      }),
      async (request) => {
        const params = auditListParams(request.query);
        const page = await listAudit(db, request.staff, params);
        return { data: page.rows, meta: listMeta(page, params) };
      },
    );
  };
}
