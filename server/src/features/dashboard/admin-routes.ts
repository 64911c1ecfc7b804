import type { Database } from '../../db/database.js';
import { errorResponses } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import { Dashboard, DashboardQuery } from './schemas.js';
import { dashboard } from './service.js';

/** GET /admin/dashboard: every role's home page, each part within the caller's scope and permissions. */
export function dashboardRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get('/dashboard', {
      config: { staffRoles: EVERY_ROLE },
      schema: {
        operationId: 'getDashboard', tags: ['admin'], summary: 'Today\'s orders by status, orders waiting longest, webhooks in trouble',
        security: [{ staffJwt: [] }], querystring: DashboardQuery, response: { 200: Dashboard, ...errorResponses(400, 401) },
      },
    }, async (request) => dashboard(db, request.staff, request.query.since === undefined ? undefined : new Date(request.query.since)));
  };
}
