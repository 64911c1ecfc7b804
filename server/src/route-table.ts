/** Which feature serves which part of the API: the route table that buildApp mounts under each prefix. */
import type { AppContext } from './context.js';
import { catalogRoutes } from './features/catalog/partner-routes.js';
import { clientRoutes } from './features/clients/partner-routes.js';
import { orderAdminRoutes } from './features/orders/admin-routes.js';
import { orderRoutes } from './features/orders/partner-routes.js';
import { paymentMethodPartnerRoutes } from './features/payment-methods/partner-routes.js';
import { quoteRoutes } from './features/quotes/partner-routes.js';
import { eventRoutes } from './features/events/partner-routes.js';
import { apiKeyRoutes } from './features/api-keys/staff-routes.js';
import { backOfficeRoutes } from './features/admin/routes.js';
import { loginRoutes } from './features/staff/staff-routes.js';
import { webhookAdminRoutes } from './features/webhooks/admin-routes.js';
import { webhookRoutes } from './features/webhooks/partner-routes.js';
import { lookupRoutes } from './features/lookups/admin-routes.js';
import { apiKeyAdminRoutes } from './features/api-keys/admin-routes.js';
import { auditRoutes } from './features/audit/admin-routes.js';
import { clientAdminRoutes } from './features/clients/admin-routes.js';
import { dashboardRoutes } from './features/dashboard/admin-routes.js';
import { orderFeedRoutes } from './features/order-feed/admin-routes.js';
import { orderLookupRoutes } from './features/orders/lookup-routes.js';
import { meRoutes } from './features/staff/me.js';
import { webhookAdminDeliveryRoutes } from './features/webhooks/admin-delivery-routes.js';
import type { App } from './http/types.js';

export type Feature = (ctx: AppContext) => (app: App) => Promise<void>;

/** Unauthenticated routes under /api/v1 (staff login). */
export const PUBLIC_FEATURES: Feature[] = [loginRoutes];
/** Partner routes under /api/v1/partner, behind API-key authentication and the per-key rate limit. */
export const PARTNER_FEATURES: Feature[] = [catalogRoutes, paymentMethodPartnerRoutes, quoteRoutes, orderRoutes, clientRoutes, webhookRoutes, eventRoutes];
/** Staff routes under /api/v1 (API-key management), behind a staff JWT. */
export const STAFF_FEATURES: Feature[] = [apiKeyRoutes, meRoutes];
/** Back-office routes under /api/v1/admin, behind a staff JWT. */
export const ADMIN_FEATURES: Feature[] = [
  orderAdminRoutes, orderLookupRoutes, orderFeedRoutes, dashboardRoutes, backOfficeRoutes, lookupRoutes, clientAdminRoutes,
  apiKeyAdminRoutes, webhookAdminRoutes, webhookAdminDeliveryRoutes, auditRoutes,
];
