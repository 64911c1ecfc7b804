import type { Executor } from '../../db/database.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import { staffRoute } from '../../auth/route-access.js';
import { NoContent } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { voidTokens } from './repository.js';

/**
 * Voids every access token of the staff user issued up to now, on every device and instance at once: staff
 * authentication reads the cutoff with the user on each request. A new login works at once (auth/staff-jwt.ts).
 */
export function logOutEverywhere(db: Executor, staffUserId: number): Promise<void> {
  return voidTokens(db, staffUserId, new Date());
}

/**
 * POST /auth/logout. Not audited, as logins are not: the trail records changes to the service's data, and a log
 * out changes nobody's rights. Personal API keys are not sessions and keep working (revoke them on their own).
 */
export function logoutRoutes({ db }: { db: Executor }) {
  return async function routes(app: App) {
    app.post('/auth/logout', staffRoute('auth')({
      roles: EVERY_ROLE,
      schema: {
        operationId: 'logout',
        summary: 'Log out everywhere: voids every access token of the caller issued up to now, on every device',
        response: { 204: NoContent },
      },
    }), async (request, reply) => {
      await logOutEverywhere(db, request.staff.staffUserId);
      return reply.code(204).send(null);
    });
  };
}
