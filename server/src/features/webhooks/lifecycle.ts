import type { Database, Executor } from '../../db/database.js';
import { inTransaction } from '../../db/locks.js';
import type { Metrics } from '../../http/metrics.js';
import type { Audit } from '../audit/service.js';
import * as deliveries from '../delivery/service.js';
import { WebhookError } from './errors.js';
import * as repo from './repository.js';

/*
 * Whether a webhook takes deliveries: delete, deactivate, reactivate. The partner acts on its own webhooks; the
 * back office (with `audit`) on those of its reach, e.g. a branch key's webhook after the key was revoked.
 */

/** Removes a webhook; its pending deliveries are abandoned (and counted so) before they go with it. */
export async function deleteWebhook(
  db: Database,
  metrics: Metrics,
  v: repo.Visibility,
  id: string,
  audit?: Audit,
): Promise<void> {
  const abandoned = await db.transaction().execute(async (tx) => {
    const hook = found(await repo.findWebhook(tx, v, id));
    const n = await deliveries.abandonDeliveriesOf(tx, id);
    if (!(await repo.deleteWebhook(tx, v, id))) throw WebhookError.notFound();
    await audit?.record(tx, {
      action: 'webhook.delete',
      entityType: 'webhook',
      entityId: id,
      branchId: hook.branch_id,
      before: summary(hook),
      after: { deleted: true, abandonedDeliveries: n },
    });
    return n;
  });
  if (abandoned) metrics.webhookDeliveries.inc({ outcome: 'abandoned' }, abandoned);
}

/**
 * Inactive until reactivated, as after too many failures: no new deliveries, pending ones abandoned. An inactive
 * webhook is returned as it is (its `deactivatedAt` kept), with no audit row, since nothing changed.
 */
export async function deactivateWebhook(db: Database, metrics: Metrics, v: repo.Visibility, id: string, audit?: Audit) {
  const { hook, abandoned } = await db.transaction().execute(async (tx) => {
    const before = found(await repo.findWebhook(tx, v, id));
    if (!before.is_active) return { hook: before, abandoned: 0 };
    const hook = found(await repo.updateWebhook(tx, v, id, { is_active: false, deactivated_at: new Date() }));
    const n = await deliveries.abandonDeliveriesOf(tx, id, 'webhook deactivated by staff');
    await audit?.record(tx, {
      action: 'webhook.deactivate',
      entityType: 'webhook',
      entityId: id,
      branchId: hook.branch_id,
      before: { isActive: true },
      after: { isActive: false, abandonedDeliveries: n },
    });
    return { hook, abandoned: n };
  });
  if (abandoned) metrics.webhookDeliveries.inc({ outcome: 'abandoned' }, abandoned);
  return hook;
}

/** Active again with a clean failure count; deliveries abandoned at deactivation stay abandoned (retry them one by one). */
export async function reactivateWebhook(db: Executor, v: repo.Visibility, id: string, audit?: Audit) {
  return audited(db, audit, async (tx) => {
    const before = found(await repo.findWebhook(tx, v, id));
    const hook = found(await repo.updateWebhook(tx, v, id, { is_active: true, fail_count: 0, deactivated_at: null }));
    await audit?.record(tx, {
      action: 'webhook.reactivate',
      entityType: 'webhook',
      entityId: id,
      branchId: hook.branch_id,
      before: { isActive: before.is_active, failCount: before.fail_count },
      after: { isActive: true, failCount: 0 },
    });
    return hook;
  });
}

const summary = (w: { url: string; events: string[]; is_active: boolean; staff_user_id: number | null }) => ({
  url: w.url,
  events: w.events,
  isActive: w.is_active,
  staffUserId: w.staff_user_id,
});

/** A back-office change commits with its audit row; a partner's (no `audit`) runs as it is. */
export function audited<T>(db: Executor, audit: Audit | undefined, work: (tx: Executor) => Promise<T>): Promise<T> {
  return audit ? inTransaction(db, work) : work(db);
}

export function found<T>(row: T | undefined): T {
  if (!row) throw WebhookError.notFound();
  return row;
}
