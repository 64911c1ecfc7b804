import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { orderKeys } from '../api/keys';
import { getOrder, getOrderClient, moveOrder, type Move } from '../api/orders';

export function useOrder(id: number) {
  return useQuery({ queryKey: orderKeys.detail(id), queryFn: () => getOrder(id) });
}

/** The order's client, or null when it has none. */
export function useOrderClient(id: number, hasClient: boolean) {
  return useQuery({ queryKey: orderKeys.client(id), enabled: hasClient, queryFn: () => getOrderClient(id) });
}

/** One move along the transition table, with the counter's comment; the board and this page refresh after it. */
export function useMoveOrder(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (move: Move) => moveOrder(id, move),
    onSuccess: (order) => {
      queryClient.setQueryData(orderKeys.detail(id), order);
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });
}
