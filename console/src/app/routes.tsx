import { Route, Routes } from 'react-router';
import { LoginPage } from '../auth/LoginPage';
import { RequireSession } from '../auth/RequireSession';
import { Shell } from '../layout/Shell';
import { ApiKeysPage } from '../pages/api-keys/ApiKeysPage';
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

/** Every page of the console; the server answers each of these paths with index.html. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route element={<RequireSession><Shell /></RequireSession>}>
        <Route index element={<HomePage />} />
        <Route path="orders" element={<OrderBoardPage />} />
        <Route path="orders/:id" element={<OrderDetailPage />} />
        <Route path="offers" element={<OffersPage />} />
        <Route path="exchanges" element={<ExchangesPage />} />
        <Route path="exchanges/:id" element={<ExchangeEditPage />} />
        <Route path="payment-methods" element={<PaymentMethodsPage />} />
        <Route path="clients" element={<ClientsPage />} />
        <Route path="staff" element={<StaffPage />} />
        <Route path="currencies" element={<CurrenciesPage />} />
        <Route path="branches" element={<BranchesPage />} />
        <Route path="api-keys" element={<ApiKeysPage />} />
        <Route path="webhooks" element={<WebhooksPage />} />
        <Route path="webhooks/:id" element={<WebhookPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
