import { api, unwrap } from '../../../lib/api/client';

export const ENTITIES = [
  'branch',
  'exchange',
  'currency',
  'offer',
  'paymentMethod',
  'staff',
  'client',
  'order',
  'apiKey',
  'webhook',
] as const;
export type Entity = (typeof ENTITIES)[number];

export interface AuditFilters {
  entityType: Entity | '';
  entityId: string;
  action: string;
  from: string;
  to: string;
}

/** The query of the filters that are set; dates are whole days in the browser's time zone, `to` included. */
function query(f: AuditFilters, skip: number, limit: number) {
  const day = (d: string, next = false) => {
    const t = new Date(`${d}T00:00:00`);
    if (next) t.setDate(t.getDate() + 1);
    return t.toISOString();
  };
  return {
    ...(f.entityType ? { entityType: f.entityType } : {}),
    ...(f.entityId.trim() ? { entityId: f.entityId.trim() } : {}),
    ...(f.action.trim() ? { action: f.action.trim() } : {}),
    ...(f.from ? { from: day(f.from) } : {}),
    ...(f.to ? { to: day(f.to, true) } : {}),
    skip,
    limit,
  };
}

export const listAudit = (filters: AuditFilters, skip: number, limit: number) =>
  unwrap(api.GET('/api/v1/admin/audit', { params: { query: query(filters, skip, limit) } }));
