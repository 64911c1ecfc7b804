import { Type } from 'typebox';
import { ALL_PERMISSIONS } from '../../auth/principal.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { Nullable, StringEnum } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import type { Database } from '../../db/database.js';
import { logoutRoutes } from './logout.js';

export const CurrentStaff = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: StringEnum(['superadmin', 'admin', 'operator']),
  branchId: Nullable(Type.Integer(), { description: 'null for a superadmin, who reaches every branch' }),
  exchangeIds: Nullable(Type.Array(Type.Integer()), { description: 'An operator\'s exchanges; null when every exchange of the reach is included' }),
  permissions: Type.Array(StringEnum([...ALL_PERMISSIONS]), { description: 'Effective permissions: all of them for admins and superadmins' }),
});

/**
 * The caller's own session: GET /auth/me, who the token belongs to as the service judges it on this request
 * (role and scope are read live), and POST /auth/logout (logout.ts).
 */
export function meRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    await app.register(logoutRoutes({ db }));
    app.get('/auth/me', staffRoute('auth')({
      roles: EVERY_ROLE,
      schema: { operationId: 'getCurrentStaff', summary: 'The staff user of the access token, with its role and scope', response: { 200: CurrentStaff } },
    }), async (request) => {
      const s = request.staff;
      return {
        id: s.staffUserId, email: s.email, role: s.role, branchId: s.branchId,
        exchangeIds: s.exchangeIds === null ? null : [...s.exchangeIds], permissions: [...s.permissions],
      };
    });
  };
}
