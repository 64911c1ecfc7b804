import type { FastifyRequest } from 'fastify';
import type { StaffPrincipal } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import { auditView } from './presenters.js';
import * as repo from './repository.js';

export type { AuditActor, AuditEntity, AuditEntry } from './types.js';
import type { AuditActor, AuditEntry } from './types.js';

/** The audit trail of one request or command: services call `record` inside the transaction of their write. */
export interface Audit {
  readonly actor: AuditActor;
  record(tx: Executor, entry: AuditEntry): Promise<void>;
}

export function auditTrail(actor: AuditActor): Audit {
  return {
    actor,
    record: (tx, entry) =>
      repo.insertAuditRow(tx, actor, { ...entry, before: redact(entry.before), after: redact(entry.after) }),
  };
}

/** The trail of a staff request: its user and role, its client address and request id. */
export function auditOf(request: FastifyRequest & { staff: StaffPrincipal }): Audit {
  return auditTrail({
    staffUserId: request.staff.staffUserId,
    role: request.staff.role,
    ip: request.ip,
    requestId: request.id,
  });
}

/** The command line acts with superadmin powers and no account: its rows read `actor: "cli"`. */
export const cliAudit = (): Audit => auditTrail({ staffUserId: null, role: 'cli', ip: null, requestId: null });

/** A write and its audit row commit together or not at all: in the caller's transaction, or a new one. */
export { inTransaction } from '../../db/locks.js';

/** Field names whose values never reach the log, at any depth: secrets, raw keys, hashes, passwords, tokens. */
const SECRET = /secret|password|hash|token|rawkey|raw_key|^key$|signature/i;
const REDACTED = '[redacted]';

export function redact(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Set) return [...value].map(redact);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // A flag (`passwordChanged: true`) tells that a secret changed without holding one.
    for (const [k, v] of Object.entries(value))
      out[k] = SECRET.test(k) && typeof v !== 'boolean' ? REDACTED : redact(v);
    return out;
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

export interface AuditReader {
  role: string;
  branchId: number | null;
}

/** Rows in the reader's reach, newest first unless sorted otherwise: a superadmin's every row, an admin's branch's. */
export async function listAudit(db: Executor, reader: AuditReader, params: ListParams) {
  const scope = { branchId: reader.role === 'superadmin' ? null : reader.branchId };
  const page = await repo.listAuditRows(db, scope, params);
  return { ...page, rows: page.rows.map(auditView) };
}
