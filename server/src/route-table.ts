/** Which feature serves which part of the API: the route table that buildApp mounts under each prefix. */
import type { AppContext } from './context.js';
import { apiKeyAdminRoutes } from './features/api-keys/admin-routes.js';
import { apiKeyRoutes } from './features/api-keys/staff-routes.js';
import { auditRoutes } from './features/audit/admin-routes.js';
import { branchRoutes } from './features/branches/admin-routes.js';
import { cashRoutes } from './features/cash/admin-routes.js';
import { catalogRoutes } from './features/catalog/partner-routes.js';
import { clientAdminRoutes } from './features/clients/admin-routes.js';
import { clientRoutes } from './features/clients/partner-routes.js';
import { currencyRoutes } from './features/currencies/admin-routes.js';
import { dashboardRoutes } from './features/dashboard/admin-routes.js';
import { eventRoutes } from './features/events/partner-routes.js';
import { exchangeRoutes } from './features/exchanges/admin-routes.js';
import { lookupRoutes } from './features/lookups/admin-routes.js';
import { offerRoutes } from './features/offers/admin-routes.js';
import { orderFeedRoutes } from './features/order-feed/admin-routes.js';
import { orderAdminRoutes } from './features/orders/admin-routes.js';
import { orderRoutes } from './features/orders/partner-routes.js';
import { paymentMethodRoutes } from './features/payment-methods/admin-routes.js';
import { paymentMethodPartnerRoutes } from './features/payment-methods/partner-routes.js';
import { quoteRoutes } from './features/quotes/partner-routes.js';
import { rateSourceRoutes } from './features/rate-sources/admin-routes.js';
import { staffRoutes } from './features/staff/admin-routes.js';
import { loginRoutes, sessionRoutes } from './features/staff/staff-routes.js';
import { webhookAdminRoutes } from './features/webhooks/admin-routes.js';
import { webhookRoutes } from './features/webhooks/partner-routes.js';
import type { App } from './http/types.js';

export type Feature = (ctx: AppContext) => (app: App) => Promise<void>;

/** Unauthenticated routes under /api/v1 (staff login). */
export const PUBLIC_FEATURES: Feature[] = [loginRoutes];
/** Partner routes under /api/v1/partner, behind API-key authentication and the per-key rate limit. */
export const PARTNER_FEATURES: Feature[] = [
  catalogRoutes,
  paymentMethodPartnerRoutes,
  quoteRoutes,
  orderRoutes,
  clientRoutes,
  webhookRoutes,
  eventRoutes,
];
/** Staff routes under /api/v1 (API-key management), behind a staff JWT. */
export const STAFF_FEATURES: Feature[] = [apiKeyRoutes, sessionRoutes];
/**
 * Back-office routes under /api/v1/admin, behind a staff JWT. The order is the OpenAPI document's order of paths:
 * changing it reorders the published document.
 */
export const ADMIN_FEATURES: Feature[] = [
  orderAdminRoutes,
  orderFeedRoutes,
  dashboardRoutes,
  branchRoutes,
  exchangeRoutes,
  cashRoutes,
  currencyRoutes,
  offerRoutes,
  rateSourceRoutes,
  paymentMethodRoutes,
  staffRoutes,
  lookupRoutes,
  clientAdminRoutes,
  apiKeyAdminRoutes,
  webhookAdminRoutes,
  auditRoutes,
];
