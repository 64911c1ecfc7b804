import { type Page } from '../db/list.js';
import { listMeta } from '../http/list-query.js';
import type { StaffPrincipal } from './principal.js';
import type { Scope } from '../db/scope.js';
import type { StaffRole } from '../db/schema.js';

/** The back office of a staff user: its branch, or every branch for a superadmin. */
export function adminScope(staff: StaffPrincipal): Scope {
  return { branchId: staff.branchId, exchangeIds: null };
}

/** Who made a back-office change, as the staff feature's rules and the audit trail read it. */
export function actorOf(staff: StaffPrincipal): { staffUserId: number; role: StaffRole; branchId: number | null } {
  return { staffUserId: staff.staffUserId, role: staff.role, branchId: staff.branchId };
}

/** Rows of the page and the count of all matches, for the `{data, meta}` envelope. */
export function page<T>(p: Page<T>, params: { skip: number; limit: number }) {
  return { data: p.rows, meta: listMeta(p, params) };
}
