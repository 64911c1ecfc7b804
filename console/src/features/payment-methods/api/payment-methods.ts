import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export type NewPaymentMethod = Body<'/api/v1/admin/payment-methods', 'post'>;
export type PaymentMethodChange = Body<'/api/v1/admin/payment-methods/{id}', 'patch'>;

export const listPaymentMethods = () =>
  unwrap(api.GET('/api/v1/admin/payment-methods', { params: { query: { limit: 100 } } }));

export const createPaymentMethod = (body: NewPaymentMethod) =>
  unwrap(api.POST('/api/v1/admin/payment-methods', { body }));

export const updatePaymentMethod = (id: number, change: PaymentMethodChange) =>
  unwrap(api.PATCH('/api/v1/admin/payment-methods/{id}', { params: { path: { id } }, body: change }));
