import { hashPassword } from '../../auth/password.js';
import type { Scope } from '../../db/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { Permission, StaffRole } from '../../db/schema.js';
import { type ListParams, mapPage } from '../../db/list.js';
import { uniqueViolation } from '../../db/errors.js';
import type { Audit } from '../audit/service.js';
import { branchExists } from '../branches/service.js';
import { exchangesOutsideBranch } from '../catalog/service.js';
import { moveOwnerWebhooks } from '../webhooks/service.js';
import { StaffError } from './errors.js';
import { staffView } from './presenters.js';
import * as repo from './repository.js';

/** A staff user by id or email with its exchanges, for authentication (auth/staff-auth.ts, wired in app.ts) and the CLI. */
export function findStaffForAuth(db: Executor, by: { id: number } | { email: string }) {
  return repo.findStaffForAuth(db, by);
}

/**
 * Voids every access token of the staff user issued up to now, on every device and instance at once: staff
 * authentication reads the cutoff with the user on each request. A new login works at once (auth/staff-jwt.ts).
 */
export function logOutEverywhere(db: Executor, staffUserId: number): Promise<void> {
  return repo.voidTokens(db, staffUserId, new Date());
}
import type { CreateStaffInput, UpdateStaffInput } from './schemas.js';

/** Who changes staff: a staff user of the back office, or the CLI (superadmin powers, no account). */
export interface Actor {
  staffUserId: number | null;
  role: StaffRole;
  branchId: number | null;
}
export const SYSTEM_ACTOR: Actor = { staffUserId: null, role: 'superadmin', branchId: null };

/** What the service needs from the process: the database, and the key caches to empty after a change. */
export interface StaffServices {
  db: Database;
  keys: { invalidate(reason: string): Promise<void> };
}

const ALL: Scope = { branchId: null, exchangeIds: null };
const actorScope = (a: Actor): Scope => ({ branchId: a.role === 'superadmin' ? null : a.branchId, exchangeIds: null });

export type StaffView = ReturnType<typeof staffView>;

export async function listStaffUsers(db: Executor, actor: Actor, params: ListParams) {
  return mapPage(await repo.listStaff(db, actorScope(actor), params), staffView);
}

export async function getStaffUser(db: Executor, actor: Actor, id: number): Promise<StaffView> {
  const row = await repo.findStaff(db, actorScope(actor), id);
  if (!row) throw StaffError.notFound();
  return staffView(row);
}

export async function createStaffUser(
  svc: StaffServices,
  actor: Actor,
  input: CreateStaffInput,
  audit: Audit,
): Promise<StaffView> {
  if (actor.role === 'operator') throw StaffError.operatorCannotManageStaff();
  if (input.role === 'superadmin' && actor.role !== 'superadmin') throw StaffError.onlySuperadminCreatesSuperadmin();
  const branchId = await resolveBranch(svc.db, actor, input.role, input.branchId);
  const exchangeIds = input.exchangeIds ?? [];
  await checkExchanges(svc.db, branchId, exchangeIds);
  const passwordHash = await hashPassword(input.password);
  try {
    return await svc.db.transaction().execute(async (tx) => {
      const id = await repo.insertStaff(tx, {
        email: input.email.toLowerCase(),
        passwordHash,
        role: input.role,
        branchId,
        permissions: (input.permissions ?? []) as Permission[],
      });
      await repo.replaceExchanges(tx, id, exchangeIds);
      const created = staffView((await repo.findStaff(tx, ALL, id))!);
      await audit.record(tx, { action: 'staff.create', entityType: 'staff', entityId: id, branchId, after: created });
      return created;
    });
  } catch (err) {
    if (uniqueViolation(err) === 'staff_users_email_key') throw StaffError.emailTaken();
    throw err;
  }
}

/**
 * Changes a staff user. Role, branch, exchanges and permissions are read on every request (JWT and personal
 * keys alike), and the key caches are emptied here and on every instance, so a change applies at once. A new
 * password or a deactivation voids the user's access tokens issued so far.
 */
export async function updateStaffUser(
  svc: StaffServices,
  actor: Actor,
  id: number,
  patch: UpdateStaffInput,
  audit: Audit,
): Promise<StaffView> {
  if (actor.role === 'operator') throw StaffError.operatorCannotManageStaff();
  if (patch.role === 'superadmin' && actor.role !== 'superadmin') throw StaffError.onlySuperadminGrantsSuperadmin();
  // Hashing is slow on purpose: do it before taking the row lock.
  const passwordHash = patch.password === undefined ? undefined : await hashPassword(patch.password);
  const view = await svc.db.transaction().execute(async (tx) => {
    const current = await repo.lockStaff(tx, actorScope(actor), id);
    if (!current) throw StaffError.notFound();
    const role = patch.role ?? current.role;
    const deactivates = patch.isActive === false && current.is_active;
    if (actor.staffUserId === id && (role !== current.role || deactivates)) {
      throw StaffError.ownRoleOrDeactivation();
    }
    if (
      current.role === 'superadmin' &&
      current.is_active &&
      (role !== 'superadmin' || deactivates) &&
      (await repo.otherActiveSuperadmins(tx, id)) === 0
    ) {
      throw StaffError.lastActiveSuperadmin();
    }
    const branchId =
      role === 'superadmin' || patch.branchId !== undefined || current.branch_id === null
        ? await resolveBranch(tx, actor, role, patch.branchId)
        : current.branch_id;
    const branchChanged = branchId !== current.branch_id;
    // Exchanges belong to a branch: moving a user drops the old ones unless new ones are given.
    const exchangeIds = patch.exchangeIds ?? (branchChanged ? [] : undefined);
    if (exchangeIds) await checkExchanges(tx, branchId, exchangeIds);
    await repo.updateStaffRow(tx, id, {
      role: patch.role,
      branchId: branchChanged ? branchId : undefined,
      permissions: patch.permissions as Permission[] | undefined,
      isActive: patch.isActive,
      passwordHash,
      voidTokens: passwordHash !== undefined || deactivates,
    });
    if (exchangeIds) await repo.replaceExchanges(tx, id, exchangeIds);
    if (branchChanged) await moveOwnerWebhooks(tx, id, branchId);
    const after = staffView((await repo.findStaff(tx, ALL, id))!);
    const entry = {
      action: 'staff.update',
      entityType: 'staff',
      entityId: id,
      before: staffView(current),
      after: { ...after, passwordChanged: passwordHash !== undefined },
    } as const;
    await audit.record(tx, { ...entry, branchId: after.branchId ?? current.branch_id });
    // A move is also the old branch's history: its admin sees that the user left.
    if (branchChanged && current.branch_id !== null && after.branchId !== null)
      await audit.record(tx, { ...entry, branchId: current.branch_id });
    return after;
  });
  await svc.keys.invalidate('staff user changed');
  return view;
}

/** The branch of a new or moved staff user: none for a superadmin; an admin's own; a superadmin names it. */
async function resolveBranch(
  db: Executor,
  actor: Actor,
  role: StaffRole,
  requested: number | undefined,
): Promise<number | null> {
  if (role === 'superadmin') {
    if (requested !== undefined) throw StaffError.branchForSuperadmin();
    return null;
  }
  if (actor.role !== 'superadmin') {
    // Another branch does not exist as far as an admin can tell.
    if (requested !== undefined && requested !== actor.branchId) throw StaffError.branchNotFound();
    return actor.branchId;
  }
  if (requested === undefined) throw StaffError.branchRequired(role);
  if (!(await branchExists(db, requested))) throw StaffError.branchNotFound();
  return requested;
}

async function checkExchanges(db: Executor, branchId: number | null, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if (branchId === null) throw StaffError.exchangesForSuperadmin();
  const outside = await exchangesOutsideBranch(db, branchId, ids);
  if (outside.length > 0) throw StaffError.exchangesOutsideBranch(outside, branchId);
}
