import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { homeKeys } from '../../home';
import { webhookKeys } from '../api/keys';
import {
  deactivateWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  reactivateWebhook,
  retryDelivery,
  rotateSecret,
} from '../api/webhooks';

export function useWebhooks(isActive: boolean | null) {
  return useQuery({ queryKey: webhookKeys.list(isActive), queryFn: () => listWebhooks(isActive) });
}

export function useWebhook(id: string) {
  return useQuery({ queryKey: webhookKeys.detail(id), queryFn: () => getWebhook(id) });
}

/** The log refreshes by itself while a delivery is pending, so a retry's outcome appears without a reload. */
function useDeliveries(id: string, status: string | null, skip: number) {
  return useQuery({
    queryKey: webhookKeys.deliveries(id, { status, skip }),
    placeholderData: keepPreviousData,
    queryFn: () => listDeliveries(id, status, skip),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 2000 : false),
  });
}

export const DELIVERY_PAGE = 25;

/** The delivery log's filter and page, and the page of deliveries they select. */
export function useDeliveryLog(id: string) {
  const [status, setStatus] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const log = useDeliveries(id, status, (page - 1) * DELIVERY_PAGE);
  return { status, setStatus, page, setPage, log };
}
export type DeliveryLogState = ReturnType<typeof useDeliveryLog>;

export function useDelivery(id: string, deliveryId: string | null) {
  return useQuery({
    queryKey: webhookKeys.delivery(id, deliveryId),
    enabled: deliveryId !== null,
    queryFn: () => getDelivery(id, deliveryId!),
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1000 : false),
  });
}

function useWebhookAction<T, In = void>(run: (input: In) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export const useRetry = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => retryDelivery(id, deliveryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.detail(id) }),
  });
};
export const useReactivate = (id: string) => useWebhookAction(() => reactivateWebhook(id));
export const useRotate = (id: string) => useWebhookAction((overlapSeconds: number) => rotateSecret(id, overlapSeconds));
export const useDeactivate = (id: string) => useWebhookAction(() => deactivateWebhook(id));
/** Only the lists are refreshed: the deleted webhook's own page is left (its query would answer 404). */
export const useDeleteWebhook = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteWebhook(id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: webhookKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: homeKeys.all }),
      ]),
  });
};
