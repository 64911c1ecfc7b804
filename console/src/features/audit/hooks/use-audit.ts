import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { listAudit, type AuditFilters } from '../api/audit';
import { auditKeys } from '../api/keys';

export const AUDIT_PAGE = 25;

export function useAuditLog(filters: AuditFilters, page: number) {
  return useQuery({
    queryKey: auditKeys.list(filters, page),
    placeholderData: keepPreviousData,
    queryFn: () => listAudit(filters, (page - 1) * AUDIT_PAGE, AUDIT_PAGE),
  });
}
