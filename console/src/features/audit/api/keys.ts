import type { AuditFilters } from './audit';

/** The query keys of the audit log: a page of the entries the filters select. */
export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters, page: number) => [...auditKeys.all, filters, page] as const,
};
