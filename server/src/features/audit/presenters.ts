import type * as repo from './repository.js';
import type { AuditEntity } from './types.js';

export function auditView(r: repo.AuditRow) {
  return {
    id: r.id,
    actor: r.actor,
    staffUserId: r.staff_user_id,
    staffEmail: r.staff_email,
    role: r.role,
    action: r.action,
    entityType: r.entity_type as AuditEntity,
    entityId: r.entity_id,
    branchId: r.branch_id,
    before: r.before ?? null,
    after: r.after ?? null,
    ip: r.ip,
    requestId: r.request_id,
    createdAt: r.created_at,
  };
}
