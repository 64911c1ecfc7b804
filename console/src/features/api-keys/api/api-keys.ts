import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export interface BranchKeyFilter {
  type?: 'personal' | 'branch' | 'public';
  branchId?: number;
}
export type NewApiKey = Body<'/api/v1/api-keys', 'post'>;

export const listMyKeys = () => unwrap(api.GET('/api/v1/api-keys'));

export const listBranchKeys = (filter: BranchKeyFilter) =>
  unwrap(api.GET('/api/v1/admin/api-keys', { params: { query: { ...filter, limit: 100 } } }));

export const createKey = (body: NewApiKey) => unwrap(api.POST('/api/v1/api-keys', { body }));

export const setAllowedOrigins = (id: string, allowedOrigins: string[]) =>
  unwrap(api.PATCH('/api/v1/api-keys/{id}', { params: { path: { id } }, body: { allowedOrigins } }));

/** An admin acts on a key of the branch through the admin routes, anyone on its own keys through the others. */
export function rollKey(asAdmin: boolean, id: string, expiresAt?: string) {
  const options = { params: { path: { id } }, body: expiresAt ? { expiresAt } : {} };
  return unwrap(
    asAdmin ? api.POST('/api/v1/admin/api-keys/{id}/roll', options) : api.POST('/api/v1/api-keys/{id}/roll', options),
  );
}

export const revokeKey = (asAdmin: boolean, id: string) =>
  unwrap(
    asAdmin
      ? api.DELETE('/api/v1/admin/api-keys/{id}', { params: { path: { id } } })
      : api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } }),
  );
