import type { App } from '../../http/types.js';
import type { StaffServices } from '../staff/service.js';
import { branchRoutes } from '../branches/admin-routes.js';
import { currencyRoutes } from '../currencies/admin-routes.js';
import { exchangeRoutes } from '../exchanges/admin-routes.js';
import { offerRoutes } from '../offers/admin-routes.js';
import { paymentMethodRoutes } from '../payment-methods/admin-routes.js';
import { staffRoutes } from '../staff/admin-routes.js';

/** The back office of the network's data (decisions §3), under /admin; orders and webhooks add their own parts. */
export function backOfficeRoutes(deps: StaffServices) {
  return async function routes(app: App) {
    for (const feature of [branchRoutes, exchangeRoutes, currencyRoutes, offerRoutes, paymentMethodRoutes, staffRoutes]) {
      await app.register(feature(deps));
    }
  };
}
