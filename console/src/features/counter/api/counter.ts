import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export type EstimateRequest = Body<'/api/v1/admin/estimate', 'post'>;
export type CounterOrderBody = Body<'/api/v1/admin/orders', 'post'>;
export type NewClient = Body<'/api/v1/admin/clients', 'post'>;

/** The server's price of the pair for the amount typed: the console never prices an order itself. */
export const estimate = (body: EstimateRequest) => unwrap(api.POST('/api/v1/admin/estimate', { body }));

/** A creation and the Idempotency-Key of its attempt: sent again with that key, it is answered with what it created. */
export interface Keyed<B> {
  body: B;
  idempotencyKey: string;
}

export const createCounterOrder = ({ body, idempotencyKey }: Keyed<CounterOrderBody>) =>
  unwrap(api.POST('/api/v1/admin/orders', { body, params: { header: { 'idempotency-key': idempotencyKey } } }));

export const createClient = ({ body, idempotencyKey }: Keyed<NewClient>) =>
  unwrap(api.POST('/api/v1/admin/clients', { body, params: { header: { 'idempotency-key': idempotencyKey } } }));

export const findClients = (q: string) =>
  unwrap(api.GET('/api/v1/admin/clients', { params: { query: { q, limit: 20 } } }));
