import { api, unwrap } from '../../../lib/api/client';

export const getLookups = () => unwrap(api.GET('/api/v1/admin/lookups'));
