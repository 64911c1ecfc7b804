import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export type CurrencyBody = Body<'/api/v1/admin/currencies', 'post'>;

export const listCurrencies = () => unwrap(api.GET('/api/v1/admin/currencies', { params: { query: { limit: 100 } } }));

export const createCurrency = (body: CurrencyBody) => unwrap(api.POST('/api/v1/admin/currencies', { body }));

export const updateCurrency = (id: number, body: CurrencyBody) =>
  unwrap(api.PATCH('/api/v1/admin/currencies/{id}', { params: { path: { id } }, body }));
