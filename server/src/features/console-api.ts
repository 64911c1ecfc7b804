import type { TSchema } from 'typebox';
import type { AppContext } from '../context.js';
import type { App } from '../http/types.js';
import { lookupRoutes } from './admin/lookups/routes.js';
import { apiKeyAdminRoutes } from './api-keys/admin-routes.js';
import { clientAdminRoutes } from './clients/admin-routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { orderFeedRoutes } from './order-feed/routes.js';
import { OrderChange } from './order-feed/schemas.js';
import { orderLookupRoutes } from './orders/lookup-routes.js';
import { meRoutes } from './staff/me.js';
import { webhookAdminDeliveryRoutes } from './webhooks/admin-delivery-routes.js';

type Feature = (ctx: AppContext) => (app: App) => Promise<void>;

/*
 * The staff API the console added (docs/console.md): the same auth, scope and schemas as every staff route,
 * listed here so app.ts registers them with the others.
 */

/** Under /api/v1, behind a staff JWT. */
export const CONSOLE_STAFF_FEATURES: Feature[] = [meRoutes];
/** Under /api/v1/admin, behind a staff JWT. */
export const CONSOLE_ADMIN_FEATURES: Feature[] = [
  dashboardRoutes, orderLookupRoutes, orderFeedRoutes, lookupRoutes, clientAdminRoutes, apiKeyAdminRoutes, webhookAdminDeliveryRoutes,
];
/** Shared schemas no route's response names but clients need: the data of the order stream's events. */
export const CONSOLE_SCHEMAS: TSchema[] = [OrderChange];
