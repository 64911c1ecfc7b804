import type { ComponentType } from 'react';
import { createBrowserRouter, createRoutesFromElements, Route } from 'react-router';
import { LoginPage } from '../pages/login/LoginPage';
import { RequireSession } from '../lib/auth/RequireSession';
import { Allowed } from '../components/layout/Allowed';
import { Shell } from '../components/layout/Shell';

/** A page behind its navigation entry's permission, as the route's element once its module has loaded. */
const allowed = (to: string, Page: ComponentType) => ({
  element: (
    <Allowed to={to}>
      <Page />
    </Allowed>
  ),
});

/**
 * Every page of the console; the server answers each of these paths with index.html. A data router, not
 * <BrowserRouter>: only it can hold a navigation back while a form has unsaved edits (useBlocker).
 * Each page is its own chunk, loaded by the router's `lazy` when its route is first opened (the page shown
 * stays until then, and a blocked navigation loads nothing): an office's first load fetches the shell and
 * the page it opens, not all fifteen.
 */
export const router = createBrowserRouter(
  createRoutesFromElements(
    <>
      <Route path="/login" element={<LoginPage />} />
      <Route
        element={
          <RequireSession>
            <Shell />
          </RequireSession>
        }
        HydrateFallback={() => null}
      >
        <Route index lazy={() => import('../pages/home/HomePage').then((m) => ({ Component: m.HomePage }))} />
        <Route
          path="orders"
          lazy={() => import('../pages/orders/OrderBoardPage').then((m) => allowed('/orders', m.OrderBoardPage))}
        />
        <Route
          path="orders/new"
          lazy={() => import('../pages/counter/CounterOrderPage').then((m) => allowed('/orders', m.CounterOrderPage))}
        />
        <Route
          path="orders/:id"
          lazy={() => import('../pages/orders/OrderDetailPage').then((m) => allowed('/orders', m.OrderDetailPage))}
        />
        <Route
          path="offers"
          lazy={() => import('../pages/offers/OffersPage').then((m) => allowed('/offers', m.OffersPage))}
        />
        <Route
          path="rate-sources"
          lazy={() =>
            import('../pages/rate-sources/RateSourcesPage').then((m) => allowed('/rate-sources', m.RateSourcesPage))
          }
        />
        <Route path="cash" lazy={() => import('../pages/cash/CashPage').then((m) => allowed('/cash', m.CashPage))} />
        <Route
          path="exchanges"
          lazy={() => import('../pages/exchanges/ExchangesPage').then((m) => allowed('/exchanges', m.ExchangesPage))}
        />
        <Route
          path="exchanges/:id"
          lazy={() =>
            import('../pages/exchanges/ExchangeEditPage').then((m) => allowed('/exchanges', m.ExchangeEditPage))
          }
        />
        <Route
          path="payment-methods"
          lazy={() =>
            import('../pages/payment-methods/PaymentMethodsPage').then((m) =>
              allowed('/payment-methods', m.PaymentMethodsPage),
            )
          }
        />
        <Route
          path="clients"
          lazy={() => import('../pages/clients/ClientsPage').then((m) => allowed('/clients', m.ClientsPage))}
        />
        <Route
          path="staff"
          lazy={() => import('../pages/staff/StaffPage').then((m) => allowed('/staff', m.StaffPage))}
        />
        <Route
          path="currencies"
          lazy={() =>
            import('../pages/currencies/CurrenciesPage').then((m) => allowed('/currencies', m.CurrenciesPage))
          }
        />
        <Route
          path="branches"
          lazy={() => import('../pages/branches/BranchesPage').then((m) => allowed('/branches', m.BranchesPage))}
        />
        <Route
          path="api-keys"
          lazy={() => import('../pages/api-keys/ApiKeysPage').then((m) => allowed('/api-keys', m.ApiKeysPage))}
        />
        <Route
          path="webhooks"
          lazy={() => import('../pages/webhooks/WebhooksPage').then((m) => allowed('/webhooks', m.WebhooksPage))}
        />
        <Route
          path="webhooks/:id"
          lazy={() => import('../pages/webhooks/WebhookPage').then((m) => allowed('/webhooks', m.WebhookPage))}
        />
        <Route
          path="reports"
          lazy={() => import('../pages/reports/ReportsPage').then((m) => allowed('/reports', m.ReportsPage))}
        />
        <Route
          path="audit"
          lazy={() => import('../pages/audit/AuditPage').then((m) => allowed('/audit', m.AuditPage))}
        />
        <Route path="*" lazy={() => import('../pages/NotFoundPage').then((m) => ({ Component: m.NotFoundPage }))} />
      </Route>
    </>,
  ),
);
