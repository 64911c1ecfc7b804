import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { OrderStatus } from '../../api/types';

export const PAGE_SIZE = 25;
const COLUMN_SIZE = 50;

const filterOf = (status: OrderStatus | null, exchangeId: number | null) =>
  JSON.stringify({ ...(status ? { status } : {}), ...(exchangeId !== null ? { cashboxId: exchangeId } : {}) });

/** One column of the board: the orders in a status, oldest first, as a queue is served. */
export function useColumn(status: OrderStatus, exchangeId: number | null) {
  return useQuery({
    queryKey: ['orders', 'column', status, exchangeId],
    queryFn: () => unwrap(api.GET('/api/v1/admin/orders', {
      params: { query: { filter: filterOf(status, exchangeId), sort: '[["createdAt","ASC"]]', limit: COLUMN_SIZE } },
    })),
  });
}

/** Every order, newest first, a page at a time, optionally of one status and one exchange. */
export function useOrderList(status: OrderStatus | null, exchangeId: number | null, skip: number) {
  return useQuery({
    queryKey: ['orders', 'list', status, exchangeId, skip],
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/api/v1/admin/orders', {
      params: { query: { filter: filterOf(status, exchangeId), sort: '[["createdAt","DESC"]]', limit: PAGE_SIZE, skip } },
    })),
  });
}

/** Orders by id, hashed id, or the client's name, email or phone. */
export function useOrderSearch(q: string) {
  return useQuery({
    queryKey: ['orders', 'search', q],
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/api/v1/admin/orders/search', { params: { query: { q, limit: 50 } } })),
  });
}
