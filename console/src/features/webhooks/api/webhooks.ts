import { api, unwrap } from '../../../lib/api/client';

export const listWebhooks = (isActive: boolean | null) =>
  unwrap(
    api.GET('/api/v1/admin/webhooks', {
      params: { query: { limit: 100, ...(isActive === null ? {} : { filter: JSON.stringify({ isActive }) }) } },
    }),
  );

export const getWebhook = (id: string) => unwrap(api.GET('/api/v1/admin/webhooks/{id}', { params: { path: { id } } }));

export const listDeliveries = (id: string, status: string | null, skip: number) =>
  unwrap(
    api.GET('/api/v1/admin/webhooks/{id}/deliveries', {
      params: { path: { id }, query: { limit: 25, skip, ...(status ? { filter: JSON.stringify({ status }) } : {}) } },
    }),
  );

export const getDelivery = (id: string, deliveryId: string) =>
  unwrap(api.GET('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}', { params: { path: { id, deliveryId } } }));

export const retryDelivery = (id: string, deliveryId: string) =>
  unwrap(
    api.POST('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id, deliveryId } } }),
  );

export const reactivateWebhook = (id: string) =>
  unwrap(api.POST('/api/v1/admin/webhooks/{id}/reactivate', { params: { path: { id } } }));

export const deactivateWebhook = (id: string) =>
  unwrap(api.POST('/api/v1/admin/webhooks/{id}/deactivate', { params: { path: { id } } }));

export const rotateSecret = (id: string, overlapSeconds: number) =>
  unwrap(api.POST('/api/v1/admin/webhooks/{id}/rotate-secret', { params: { path: { id } }, body: { overlapSeconds } }));

export const deleteWebhook = (id: string) =>
  unwrap(api.DELETE('/api/v1/admin/webhooks/{id}', { params: { path: { id } } }));
