import { api, unwrap } from '../../../lib/api/client';
import type { Body } from '../../../lib/api/types';

export type NewStaffUser = Body<'/api/v1/admin/staff', 'post'>;
export type StaffChange = Body<'/api/v1/admin/staff/{id}', 'patch'>;

export const listStaff = () => unwrap(api.GET('/api/v1/admin/staff', { params: { query: { limit: 100 } } }));

export const createStaffUser = (body: NewStaffUser) => unwrap(api.POST('/api/v1/admin/staff', { body }));

export const updateStaffUser = (id: number, body: StaffChange) =>
  unwrap(api.PATCH('/api/v1/admin/staff/{id}', { params: { path: { id } }, body }));
