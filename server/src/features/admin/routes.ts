import type { App } from '../../http/types.js';
import type { StaffServices } from '../staff/service.js';
import { branchRoutes } from './branches/routes.js';
import { currencyRoutes } from './currencies/routes.js';
import { exchangeRoutes } from './exchanges/routes.js';
import { offerRoutes } from './offers/routes.js';
import { paymentMethodRoutes } from './payment-methods/routes.js';
import { staffRoutes } from './staff/routes.js';

/** The back office of the network's data (decisions §3), under /admin; orders and webhooks add their own parts. */
export function backOfficeRoutes(deps: StaffServices) {
  return async function routes(app: App) {
    for (const feature of [branchRoutes, exchangeRoutes, currencyRoutes, offerRoutes, paymentMethodRoutes, staffRoutes]) {
      await app.register(feature(deps));
    }
  };
}
