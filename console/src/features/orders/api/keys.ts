import type { OrderStatus } from '../../../lib/api/types';

export interface OrderFilters {
  status: OrderStatus | null;
  exchangeId: number | null;
}

/**
 * The query keys of orders. Everything starts with `all`, so one change heard on the stream refreshes every list,
 * column and order at once.
 */
export const orderKeys = {
  all: ['orders'] as const,
  column: (status: OrderStatus, exchangeId: number | null) => [...orderKeys.all, 'column', status, exchangeId] as const,
  list: (filters: OrderFilters & { skip: number }) => [...orderKeys.all, 'list', filters] as const,
  search: (q: string) => [...orderKeys.all, 'search', q] as const,
  detail: (id: number) => [...orderKeys.all, 'one', id] as const,
  client: (id: number) => [...orderKeys.all, 'client', id] as const,
};
