import { createBrowserRouter, createRoutesFromElements, Route } from 'react-router';
import { LoginPage } from '../auth/LoginPage';
import { RequireSession } from '../auth/RequireSession';
import { Allowed } from '../layout/Allowed';
import { Shell } from '../layout/Shell';
import { ApiKeysPage } from '../pages/api-keys/ApiKeysPage';
import { AuditPage } from '../pages/audit/AuditPage';
import { BranchesPage } from '../pages/branches/BranchesPage';
import { ClientsPage } from '../pages/clients/ClientsPage';
import { CurrenciesPage } from '../pages/currencies/CurrenciesPage';
import { ExchangeEditPage } from '../pages/exchanges/ExchangeEditPage';
import { ExchangesPage } from '../pages/exchanges/ExchangesPage';
import { HomePage } from '../pages/home/HomePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { OffersPage } from '../pages/offers/OffersPage';
import { OrderBoardPage } from '../pages/orders/OrderBoardPage';
import { OrderDetailPage } from '../pages/orders/OrderDetailPage';
import { PaymentMethodsPage } from '../pages/payment-methods/PaymentMethodsPage';
import { StaffPage } from '../pages/staff/StaffPage';
import { WebhookPage } from '../pages/webhooks/WebhookPage';
import { WebhooksPage } from '../pages/webhooks/WebhooksPage';

/**
 * Every page of the console; the server answers each of these paths with index.html. A data router, not
 * <BrowserRouter>: only it can hold a navigation back while a form has unsaved edits (useBlocker).
 */
export const router = createBrowserRouter(createRoutesFromElements(
  <>
    <Route path="/login" element={<LoginPage />} />
    <Route element={<RequireSession><Shell /></RequireSession>}>
      <Route index element={<HomePage />} />
      <Route path="orders" element={<Allowed to="/orders"><OrderBoardPage /></Allowed>} />
      <Route path="orders/:id" element={<Allowed to="/orders"><OrderDetailPage /></Allowed>} />
      <Route path="offers" element={<Allowed to="/offers"><OffersPage /></Allowed>} />
      <Route path="exchanges" element={<Allowed to="/exchanges"><ExchangesPage /></Allowed>} />
      <Route path="exchanges/:id" element={<Allowed to="/exchanges"><ExchangeEditPage /></Allowed>} />
      <Route path="payment-methods" element={<Allowed to="/payment-methods"><PaymentMethodsPage /></Allowed>} />
      <Route path="clients" element={<Allowed to="/clients"><ClientsPage /></Allowed>} />
      <Route path="staff" element={<Allowed to="/staff"><StaffPage /></Allowed>} />
      <Route path="currencies" element={<Allowed to="/currencies"><CurrenciesPage /></Allowed>} />
      <Route path="branches" element={<Allowed to="/branches"><BranchesPage /></Allowed>} />
      <Route path="api-keys" element={<Allowed to="/api-keys"><ApiKeysPage /></Allowed>} />
      <Route path="webhooks" element={<Allowed to="/webhooks"><WebhooksPage /></Allowed>} />
      <Route path="webhooks/:id" element={<Allowed to="/webhooks"><WebhookPage /></Allowed>} />
      <Route path="audit" element={<Allowed to="/audit"><AuditPage /></Allowed>} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  </>,
));
