import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export type ExchangeBody = Body<'/api/v1/admin/exchanges', 'post'>;

export const listExchanges = () => unwrap(api.GET('/api/v1/admin/exchanges', { params: { query: { limit: 100 } } }));

export const getExchange = (id: number) =>
  unwrap(api.GET('/api/v1/admin/exchanges/{id}', { params: { path: { id } } }));

export const createExchange = (body: ExchangeBody) => unwrap(api.POST('/api/v1/admin/exchanges', { body }));

export const updateExchange = (id: number, body: ExchangeBody) =>
  unwrap(api.PATCH('/api/v1/admin/exchanges/{id}', { params: { path: { id } }, body }));
