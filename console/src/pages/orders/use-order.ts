import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { OrderStatus } from '../../api/types';

export function useOrder(id: number) {
  return useQuery({ queryKey: ['orders', 'one', id], queryFn: () => unwrap(api.GET('/api/v1/admin/orders/{id}', { params: { path: { id } } })) });
}

/** The order's client, or null when it has none (the API answers 404). */
export function useOrderClient(id: number, hasClient: boolean) {
  return useQuery({
    queryKey: ['orders', 'client', id],
    enabled: hasClient,
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/api/v1/admin/orders/{id}/client', { params: { path: { id } } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
}

/** One move along the transition table, with the counter's comment; the board and this page refresh after it. */
export function useMoveOrder(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (move: { status: OrderStatus; comment?: string }) =>
      unwrap(api.POST('/api/v1/admin/orders/{id}/status', { params: { path: { id } }, body: move })),
    onSuccess: (order) => {
      queryClient.setQueryData(['orders', 'one', id], order);
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}
