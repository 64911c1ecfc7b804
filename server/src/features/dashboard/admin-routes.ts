import type { Database } from '../../db/database.js';
import { staffRoute } from '../../auth/route-access.js';
import type { App } from '../../http/types.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import { Dashboard, DashboardQuery } from './schemas.js';
import { dashboard } from './service.js';

/** GET /admin/dashboard: every role's home page, each part within the caller's scope and permissions. */
export function dashboardRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get(
      '/dashboard',
      staffRoute('admin')({
        roles: EVERY_ROLE,
        schema: {
          operationId: 'getDashboard',
          summary: "Today's orders by status, orders waiting longest, webhooks in trouble",
          querystring: DashboardQuery,
          response: { 200: Dashboard },
        },
      }),
      async (request) =>
        dashboard(db, request.staff, request.query.since === undefined ? undefined : new Date(request.query.since)),
    );
  };
}
