export { ENTITIES, type AuditFilters, type Entity } from './api/audit';
export { auditKeys } from './api/keys';
export { AuditChanges } from './components/AuditChanges';
export { AUDIT_PAGE, useAuditLog } from './hooks/use-audit';
