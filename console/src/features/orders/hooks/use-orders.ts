import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OrderStatus } from '../../../lib/api/types';
import { orderKeys } from '../api/keys';
import { listOrders, searchOrders } from '../api/orders';

export const PAGE_SIZE = 25;
const COLUMN_SIZE = 50;

/** One column of the board: the orders in a status, oldest first, as a queue is served. */
export function useColumn(status: OrderStatus, exchangeId: number | null) {
  return useQuery({
    queryKey: orderKeys.column(status, exchangeId),
    queryFn: () => listOrders({ status, exchangeId }, { sort: 'ASC', limit: COLUMN_SIZE }),
  });
}

/** Every order, newest first, a page at a time, optionally of one status and one exchange. */
export function useOrderList(status: OrderStatus | null, exchangeId: number | null, skip: number) {
  return useQuery({
    queryKey: orderKeys.list({ status, exchangeId, skip }),
    placeholderData: keepPreviousData,
    queryFn: () => listOrders({ status, exchangeId }, { sort: 'DESC', limit: PAGE_SIZE, skip }),
  });
}

/** Orders by id, hashed id, or the client's name, email or phone. */
export function useOrderSearch(q: string) {
  return useQuery({
    queryKey: orderKeys.search(q),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    queryFn: () => searchOrders(q),
  });
}
