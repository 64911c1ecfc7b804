import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

export function useWebhooks(isActive: boolean | null) {
  return useQuery({
    queryKey: ['webhooks', 'list', isActive],
    queryFn: () => unwrap(api.GET('/api/v1/admin/webhooks', { params: { query: { limit: 100, ...(isActive === null ? {} : { filter: JSON.stringify({ isActive }) }) } } })),
  });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: ['webhooks', id], queryFn: () => unwrap(api.GET('/api/v1/admin/webhooks/{id}', { params: { path: { id } } })) });
}

/** The log refreshes by itself while a delivery is pending, so a retry's outcome appears without a reload. */
export function useDeliveries(id: string, status: string | null, skip: number) {
  return useQuery({
    queryKey: ['webhooks', id, 'deliveries', status, skip],
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/api/v1/admin/webhooks/{id}/deliveries', {
      params: { path: { id }, query: { limit: 25, skip, ...(status ? { filter: JSON.stringify({ status }) } : {}) } },
    })),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 2000 : false),
  });
}

export function useDelivery(id: string, deliveryId: string | null) {
  return useQuery({
    queryKey: ['webhooks', id, 'delivery', deliveryId],
    enabled: deliveryId !== null,
    queryFn: () => unwrap(api.GET('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}', { params: { path: { id, deliveryId: deliveryId! } } })),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1000 : false),
  });
}

function useWebhookAction<T, In = void>(run: (input: In) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }) });
}

export const useRetry = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => unwrap(api.POST('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/retry', { params: { path: { id, deliveryId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks', id] }),
  });
};
export const useReactivate = (id: string) => useWebhookAction(() => unwrap(api.POST('/api/v1/admin/webhooks/{id}/reactivate', { params: { path: { id } } })));
export const useRotate = (id: string) => useWebhookAction((overlapSeconds: number) =>
  unwrap(api.POST('/api/v1/admin/webhooks/{id}/rotate-secret', { params: { path: { id } }, body: { overlapSeconds } })));
export const useDeactivate = (id: string) => useWebhookAction(() => unwrap(api.POST('/api/v1/admin/webhooks/{id}/deactivate', { params: { path: { id } } })));
/** Only the lists are refreshed: the deleted webhook's own page is left (its query would answer 404). */
export const useDeleteWebhook = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/admin/webhooks/{id}', { params: { path: { id } } })),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['webhooks', 'list'] }), queryClient.invalidateQueries({ queryKey: ['dashboard'] })]),
  });
};
