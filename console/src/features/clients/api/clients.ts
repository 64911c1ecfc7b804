import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export type ClientChange = Body<'/api/v1/admin/clients/{id}', 'patch'>;

export const listClients = (q: string, skip: number, limit: number) =>
  unwrap(api.GET('/api/v1/admin/clients', { params: { query: { ...(q ? { q } : {}), skip, limit } } }));

export const updateClient = (id: number, body: ClientChange) =>
  unwrap(api.PATCH('/api/v1/admin/clients/{id}', { params: { path: { id } }, body }));
