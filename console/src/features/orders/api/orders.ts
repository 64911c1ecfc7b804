import { api, unwrap } from '../../../lib/api/client';
import { ApiError } from '../../../lib/api/errors';
import type { OrderStatus } from '../../../lib/api/types';
import type { OrderFilters } from './keys';

const filterOf = ({ status, exchangeId }: OrderFilters) =>
  JSON.stringify({ ...(status ? { status } : {}), ...(exchangeId !== null ? { cashboxId: exchangeId } : {}) });

export function listOrders(filters: OrderFilters, page: { sort: 'ASC' | 'DESC'; limit: number; skip?: number }) {
  return unwrap(
    api.GET('/api/v1/admin/orders', {
      params: {
        query: {
          filter: filterOf(filters),
          sort: `[["createdAt","${page.sort}"]]`,
          limit: page.limit,
          ...(page.skip === undefined ? {} : { skip: page.skip }),
        },
      },
    }),
  );
}

export const searchOrders = (q: string) =>
  unwrap(api.GET('/api/v1/admin/orders/search', { params: { query: { q, limit: 50 } } }));

export const getOrder = (id: number) => unwrap(api.GET('/api/v1/admin/orders/{id}', { params: { path: { id } } }));

/** The order's client, or null when it has none (the API answers 404). */
export async function getOrderClient(id: number) {
  try {
    return await unwrap(api.GET('/api/v1/admin/orders/{id}/client', { params: { path: { id } } }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export interface Move {
  status: OrderStatus;
  comment?: string;
}

export const moveOrder = (id: number, move: Move) =>
  unwrap(api.POST('/api/v1/admin/orders/{id}/status', { params: { path: { id } }, body: move }));

/** The order's printable receipt, as the HTML the API writes (in the office's time zone). */
export const getReceipt = (id: number) =>
  unwrap(
    api.GET('/api/v1/admin/orders/{id}/receipt', { params: { path: { id } }, parseAs: 'text' }),
  ) as Promise<string>;

/** Every order of the filters, newest first, as the API's CSV. */
export const exportOrders = (filters: OrderFilters) =>
  unwrap(
    api.GET('/api/v1/admin/orders', {
      params: { query: { filter: filterOf(filters), sort: '[["createdAt","DESC"]]', format: 'csv' } },
      parseAs: 'blob',
    }),
  ) as Promise<Blob>;
