import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { pageQuery, type Condition, type ListParams } from '../../db/list.js';
import type { AuditActor, AuditEntry } from './types.js';

export function insertAuditRow(db: Executor, actor: AuditActor, entry: AuditEntry): Promise<void> {
  return db
    .insertInto('audit_log')
    .values({
      actor: actor.staffUserId === null ? 'cli' : 'staff',
      staff_user_id: actor.staffUserId,
      role: actor.role,
      action: entry.action,
      entity_type: entry.entityType,
      // A UUID taken from a path may arrive in upper case; the log keeps the form the rows and the filter use.
      entity_id: String(entry.entityId).toLowerCase(),
      branch_id: entry.branchId,
      before: entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after),
      ip: actor.ip,
      request_id: actor.requestId,
    })
    .execute()
    .then(() => undefined);
}

/** Filter and sort names of the API, as columns. */
export const AUDIT_COLUMNS: Record<string, string> = {
  id: 'a.id',
  entityType: 'a.entity_type',
  entityId: 'a.entity_id',
  staffUserId: 'a.staff_user_id',
  actor: 'a.actor',
  action: 'a.action',
  createdAt: 'a.created_at',
};

type AuditScope = { branchId: number | null };

/** The counters' rows of the scope: a branch's (0: rows of no branch, which only a superadmin reads, with every branch's). */
const branchKey = (scope: AuditScope) =>
  scope.branchId === null ? sql<boolean>`true` : sql<boolean>`branch_key = ${scope.branchId}`;

/**
 * The exact count unfiltered or filtered on actor, action and entity type, from the counters migration 016's
 * triggers keep per (branch, actor, action, entity type); a period's from the days inside it and the rows of
 * its edge days.
 */
const COUNTED: Record<string, string> = { actor: 'actor', action: 'action', entityType: 'entity_type' };
function exactTotal(scope: AuditScope, conditions: readonly Condition[]) {
  if (!conditions.every((c) => c.op === 'eq' && Object.hasOwn(COUNTED, c.field))) return null;
  const parts = [branchKey(scope), ...conditions.map((c) => sql<boolean>`${sql.ref(COUNTED[c.field]!)} = ${c.value}`)];
  return sql<number>`(select coalesce(sum(n), 0)::int from audit_counts where ${sql.join(parts, sql` and `)})`;
}

const auditPage = pageQuery(
  (db: Executor, scope: AuditScope) =>
    db
      .selectFrom('audit_log as a')
      // A branch admin reads its branch's rows; network-wide rows (null branch) are a superadmin's.
      .where(sql<boolean>`(${scope.branchId}::int is null or a.branch_id = ${scope.branchId}::int)`),
  AUDIT_COLUMNS,
  (qb) =>
    qb
      .leftJoin('staff_users as s', 's.id', 'a.staff_user_id')
      .select([
        'a.id',
        'a.actor',
        'a.staff_user_id',
        's.email as staff_email',
        'a.role',
        'a.action',
        'a.entity_type',
        'a.entity_id',
        'a.branch_id',
        'a.before',
        'a.after',
        'a.ip',
        'a.request_id',
        'a.created_at',
      ]),
  {
    planEachTime: true,
    exactTotal,
    // A branch's days only: every branch's would be a row per branch and day.
    dayCounts: (scope) => (scope.branchId === null ? null : { table: 'audit_days', where: branchKey(scope) }),
  },
);

export function listAuditRows(db: Executor, scope: AuditScope, params: ListParams) {
  return auditPage(db, { branchId: scope.branchId }, params);
}

export type AuditRow = Awaited<ReturnType<typeof listAuditRows>>['rows'][number];
