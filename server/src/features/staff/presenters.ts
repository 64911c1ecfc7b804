import type * as repo from './repository.js';

export function staffView(r: repo.StaffRow) {
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    branchId: r.branch_id,
    exchangeIds: r.exchange_ids,
    permissions: r.permissions,
    isActive: r.is_active,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
