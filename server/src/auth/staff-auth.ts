import type { FastifyInstance } from 'fastify';
import type { Permission, StaffRole } from '../db/schema.js';
import { unauthorized } from '../http/errors.js';
import { permissionsFor, staffScope, type StaffPrincipal } from './principal.js';
import { acceptsToken, type StaffTokens } from './staff-jwt.js';
import { permissionCheck, roleRefusal, type StaffAccess } from './staff-permissions.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call a staff route: required on every route of a staff scope (staff-permissions.ts). */
    staffAccess?: StaffAccess;
  }
  interface FastifyRequest {
    staff: StaffPrincipal;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** A staff user as authentication reads it on each request, by id (local tokens) or email (external ones). */
export type StaffLookup = (by: { id: number } | { email: string }) => Promise<
  | {
      id: number;
      email: string;
      role: StaffRole;
      branch_id: number | null;
      permissions: Permission[];
      is_active: boolean;
      exchange_ids: number[];
      tokens_valid_after: Date | null;
    }
  | undefined
>;

/**
 * Staff JWT authentication for every route of the scope it is registered in. The staff user is read on each
 * request (not cached), so a deactivated user, a changed role or exchange list, and a token cutoff (log out,
 * password change) take effect at once on every instance. The cutoff applies to external tokens of a user too.
 */
export function registerStaffAuth(
  app: FastifyInstance,
  { tokens, findStaff }: { tokens: StaffTokens; findStaff: StaffLookup },
): void {
  app.decorateRequest('staff', null as unknown as StaffPrincipal);
  app.addHook('onRoute', (route) => {
    const access = route.config?.staffAccess;
    if (!access) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url}: a staff route states who may call it (staffRoute's roles or permission)`,
      );
    }
    if (access.permissions.length > 0)
      route.preHandler = [...[route.preHandler ?? []].flat(), permissionCheck(access.permissions)];
  });
  app.addHook('onRequest', async (request) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw unauthorized('Missing access token: send Authorization: Bearer <JWT>');
    const verified = await tokens.verify(match[1]);
    if (!verified) throw unauthorized('Invalid or expired access token');
    const by = /^\d{1,9}$/.test(verified.subject)
      ? { id: Number(verified.subject) }
      : verified.external
        ? { email: verified.subject }
        : null;
    const user = by ? await findStaff(by) : undefined;
    if (!acceptsToken(user, verified.issuedAt)) throw unauthorized('Invalid or expired access token');
    request.staff = {
      kind: 'staff',
      staffUserId: user.id,
      role: user.role,
      email: user.email,
      permissions: permissionsFor(user.role, user.permissions),
      ...staffScope(user.role, user.branch_id, user.exchange_ids),
      token: { issuedAt: verified.issuedAt, expiresAt: verified.expiresAt },
    };
    // Every route of the scope states it (onRoute above); a request that matched no route has none to check.
    const access = request.routeOptions.config.staffAccess;
    const refused = access && roleRefusal(user.role, access);
    if (refused) throw refused;
  });
}
