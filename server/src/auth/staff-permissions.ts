import type { FastifyRequest } from 'fastify';
import type { Permission, StaffRole } from '../db/schema.js';
import { forbidden } from '../http/errors.js';

export const EVERY_ROLE: readonly StaffRole[] = ['superadmin', 'admin', 'operator'];
/** Branch administration: a superadmin anywhere, an admin in its own branch. Operators get 403. */
export const BRANCH_ADMINS: readonly StaffRole[] = ['superadmin', 'admin'];
export const SUPERADMIN_ONLY: readonly StaffRole[] = ['superadmin'];

/**
 * Who may call a staff route, stated by every one (route-access.ts staffRoute; staff-auth refuses to register a route
 * without it): the roles it is open to, and the permissions its caller must hold. An operator holds the permissions
 * it was granted, admins and superadmins hold them all (principal.ts), as a staff user's personal keys do.
 */
export interface StaffAccess {
  roles: readonly StaffRole[];
  permissions: readonly Permission[];
}

/** Whether a route refuses some staff users: one that does documents its 403. */
export function restricts(access: StaffAccess): boolean {
  return access.permissions.length > 0 || EVERY_ROLE.some((role) => !access.roles.includes(role));
}

/** The role half of the check: made as soon as the caller is known, before its request is read. */
export function roleRefusal(role: StaffRole, access: StaffAccess): Error | undefined {
  if (!access.roles.includes(role))
    return forbidden(`This operation needs one of the roles: ${access.roles.join(', ')}`);
  return undefined;
}

/**
 * The permission half, a route's preHandler: after validation, so a request both invalid and refused is told what
 * is wrong with it first. The first permission missing, in the route's order, is the one named.
 */
export function permissionCheck(permissions: readonly Permission[]) {
  return async (request: FastifyRequest) => {
    const missing = permissions.find((permission) => !request.staff.permissions.has(permission));
    if (missing) throw forbidden(`This staff user lacks the ${missing} permission`);
  };
}
