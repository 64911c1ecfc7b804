import { api, unwrap } from '../../../lib/api/client';

export const getDashboard = (since: string) =>
  unwrap(api.GET('/api/v1/admin/dashboard', { params: { query: { since } } }));
