import { api, unwrap } from '../../../lib/api/client';

export type NewBranch = { name: string; isSandbox: boolean };

export const listBranches = () => unwrap(api.GET('/api/v1/admin/branches', { params: { query: { limit: 100 } } }));

export const createBranch = (body: NewBranch) => unwrap(api.POST('/api/v1/admin/branches', { body }));

export const setSandbox = (id: number, isSandbox: boolean) =>
  unwrap(api.PATCH('/api/v1/admin/branches/{id}', { params: { path: { id } }, body: { isSandbox } }));
