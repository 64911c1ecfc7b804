import type { components, paths } from '@pxs/sdk';

/** The 200 (or first 2xx) JSON body of an operation: every page's data is typed from the OpenAPI document. */
type Ok<R> = R extends { 200: { content: { 'application/json': infer T } } }
  ? T
  : R extends { 201: { content: { 'application/json': infer T } } }
    ? T
    : R extends { 202: { content: { 'application/json': infer T } } }
      ? T
      : never;
export type Response<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? Ok<R>
  : never;
export type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type ErrorBody = components['schemas']['Error'];
export type OrderChange = components['schemas']['OrderChange'];
export type Me = Response<'/api/v1/auth/me', 'get'>;
export type Role = Me['role'];
export type Permission = Me['permissions'][number];
export type Lookups = Response<'/api/v1/admin/lookups', 'get'>;
export type AdminOrder = Response<'/api/v1/admin/orders', 'get'>['data'][number];
export type OrderDetail = Response<'/api/v1/admin/orders/{id}', 'get'>;
export type OrderStatus = AdminOrder['status'];
export type FoundOrder = Response<'/api/v1/admin/orders/search', 'get'>['data'][number];
export type Offer = Response<'/api/v1/admin/offers', 'get'>['data'][number];
export type Exchange = Response<'/api/v1/admin/exchanges', 'get'>['data'][number];
export type PaymentMethod = Response<'/api/v1/admin/payment-methods', 'get'>['data'][number];
export type StaffUser = Response<'/api/v1/admin/staff', 'get'>['data'][number];
export type AdminClient = Response<'/api/v1/admin/clients', 'get'>['data'][number];
export type Currency = Response<'/api/v1/admin/currencies', 'get'>['data'][number];
export type Branch = Response<'/api/v1/admin/branches', 'get'>['data'][number];
export type ApiKey = Response<'/api/v1/api-keys', 'get'>[number];
export type CreatedApiKey = Response<'/api/v1/api-keys', 'post'>;
export type RolledApiKey = Response<'/api/v1/api-keys/{id}/roll', 'post'>;
export type BranchKey = Response<'/api/v1/admin/api-keys', 'get'>['data'][number];
export type AdminWebhook = Response<'/api/v1/admin/webhooks/{id}', 'get'>;
export type WebhookRow = Response<'/api/v1/admin/webhooks', 'get'>['data'][number];
export type Delivery = Response<'/api/v1/admin/webhooks/{id}/deliveries', 'get'>['data'][number];
export type DeliveryDetail = Response<'/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}', 'get'>;
export type Dashboard = Response<'/api/v1/admin/dashboard', 'get'>;
export type AuditEntry = Response<'/api/v1/admin/audit', 'get'>['data'][number];
export type CashPosition = Response<'/api/v1/admin/exchanges/{id}/cash', 'get'>['data'][number];
export type CashMovement = Response<'/api/v1/admin/exchanges/{id}/cash/{currencyId}/movements', 'get'>['data'][number];
