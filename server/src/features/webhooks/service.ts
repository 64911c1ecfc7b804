import type { KeyPrincipal, StaffPrincipal } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import type { WebhookEvent } from '../../db/schema.js';
import { inTransaction, lockFor } from '../../db/locks.js';
import type { Audit } from '../audit/service.js';
import * as deliveries from '../delivery/service.js';
import { checkWebhookUrl, newSecret, UrlProblem } from '../delivery/service.js';
import { WebhookError } from './errors.js';
import { audited, found } from './lifecycle.js';
import * as repo from './repository.js';

export type { Visibility } from './repository.js';
export const webhooksInTrouble: typeof repo.webhooksInTrouble = (...args) => repo.webhooksInTrouble(...args);
export const ownerEmails: typeof repo.ownerEmails = (...args) => repo.ownerEmails(...args);
export { deactivateWebhook, deleteWebhook, reactivateWebhook } from './lifecycle.js';

/**
 * A staff user's webhooks go with them to another branch (repository.ts). Their delivery log stays behind, deleted
 * in the move's transaction: it holds the orders and offers of the branch they left, which the new branch's admin
 * (who sees the webhooks now) and the user may no longer read. Pending deliveries of the old branch go with it.
 * A security review found the log readable by the new branch's admin.
 */
export async function moveOwnerWebhooks(tx: Executor, staffUserId: number, branchId: number | null): Promise<void> {
  const moved = await repo.moveOwnerWebhooks(tx, staffUserId, branchId);
  // A superadmin (no branch) may read every branch's anyway.
  if (moved.length > 0 && branchId !== null) await deliveries.deleteDeliveriesOf(tx, moved);
}

export function keyVisibility(p: KeyPrincipal): repo.Visibility {
  if (p.keyType === 'personal' && p.staffUserId !== null) return { staffUserId: p.staffUserId };
  if (p.branchId !== null) return { branchId: p.branchId };
  throw new Error('a key without a user or a branch cannot own webhooks');
}

/** A superadmin sees every webhook, an admin its branch's, an operator its own (made with its personal keys). */
export function staffVisibility(p: StaffPrincipal): repo.Visibility {
  if (p.role === 'operator') return { staffUserId: p.staffUserId };
  return p.branchId === null ? { all: true } : { branchId: p.branchId };
}

/** The URL rules, with the 400 the partner sees; the address check repeats before every attempt. */
async function validUrl(url: string, allowPrivateUrls: boolean): Promise<string> {
  try {
    return (await checkWebhookUrl(url, allowPrivateUrls)).toString();
  } catch (err) {
    if (err instanceof UrlProblem) throw WebhookError.urlRefused(err.code, err.message);
    throw err;
  }
}

/**
 * A webhook belongs to the principal of the creating key: the staff user of a personal key, or a branch key's
 * branch. An owner holds at most `limit` webhooks (docs/decisions.md, "Limits per owner"); the count and the
 * insert are serialised per owner, so concurrent registrations cannot pass the limit together.
 */
export async function createWebhook(
  db: Executor,
  allowPrivateUrls: boolean,
  limit: number,
  p: KeyPrincipal,
  input: { url: string; events: WebhookEvent[] },
) {
  const url = await validUrl(input.url, allowPrivateUrls);
  const personal = p.keyType === 'personal';
  const owner = personal && p.staffUserId !== null ? { staffUserId: p.staffUserId } : { branchId: p.branchId! };
  return inTransaction(db, async (tx) => {
    await lockFor(
      tx,
      'staffUserId' in owner ? `webhooks:staff:${owner.staffUserId}` : `webhooks:branch:${owner.branchId}`,
    );
    if ((await repo.countWebhooksOfOwner(tx, owner)) >= limit) {
      throw WebhookError.limitReached(limit);
    }
    return repo.insertWebhook(tx, {
      branchId: p.branchId,
      staffUserId: personal ? p.staffUserId : null,
      keyId: p.keyId,
      url,
      events: input.events,
      secret: newSecret(),
    });
  });
}

export function listWebhooks(db: Executor, v: repo.Visibility, params: ListParams) {
  return repo.listWebhooks(db, v, params);
}

export async function updateWebhook(
  db: Executor,
  allowPrivateUrls: boolean,
  v: repo.Visibility,
  id: string,
  input: { url?: string; events?: WebhookEvent[] },
) {
  const change: repo.WebhookChange = {};
  if (input.url !== undefined) change.url = await validUrl(input.url, allowPrivateUrls);
  if (input.events !== undefined) change.events = input.events;
  return found(await repo.updateWebhook(db, v, id, change));
}

export async function getWebhook(db: Executor, v: repo.Visibility, id: string) {
  return found(await repo.findWebhook(db, v, id));
}

/** How long a replaced secret keeps signing when the caller does not say (Svix's default). */
export const DEFAULT_SECRET_OVERLAP_SECONDS = 24 * 3600;

/**
 * Attempts claimed from now on are signed with the new secret, and also with the replaced one for
 * `overlapSeconds` (0: the old secret stops at once), so receivers can switch without missing a delivery.
 */
export async function rotateSecret(
  db: Executor,
  v: repo.Visibility,
  id: string,
  overlapSeconds = DEFAULT_SECRET_OVERLAP_SECONDS,
  audit?: Audit,
) {
  return audited(db, audit, async (tx) => {
    const hook = found(await repo.rotateWebhookSecret(tx, v, id, newSecret(), overlapSeconds));
    await audit?.record(tx, {
      action: 'webhook.rotateSecret',
      entityType: 'webhook',
      entityId: id,
      branchId: hook.branch_id,
      after: { secretRotated: true, overlapSeconds },
    });
    return hook;
  });
}

/** The delivery log of a visible webhook; 404 when the webhook is not visible, even if it has no deliveries. */
export async function listDeliveries(db: Executor, v: repo.Visibility, id: string, params: ListParams) {
  await getWebhook(db, v, id);
  return deliveries.listDeliveries(db, id, params);
}

/** One delivery of a visible webhook, with its attempts; a webhook the caller does not see has no deliveries. */
export async function getDelivery(db: Executor, v: repo.Visibility, id: string, deliveryId: string) {
  const found = (await repo.findWebhook(db, v, id)) && (await deliveries.getDelivery(db, id, deliveryId));
  if (!found) throw WebhookError.deliveryNotFound();
  return found;
}

export async function retryDelivery(db: Executor, v: repo.Visibility, id: string, deliveryId: string, audit?: Audit) {
  const hook = await getWebhook(db, v, id);
  const current = await deliveries.findDelivery(db, id, deliveryId);
  if (!current) throw WebhookError.deliveryNotFound();
  if (!hook.is_active) throw WebhookError.retryOnInactiveWebhook();
  return audited(db, audit, async (tx) => {
    // A delivery whose attempt is in flight right now is left as it is: that attempt is the retry.
    const requeued = await deliveries.requeueDelivery(tx, id, deliveryId);
    await audit?.record(tx, {
      action: 'webhook.retryDelivery',
      entityType: 'webhook',
      entityId: id,
      branchId: hook.branch_id,
      before: { deliveryId, status: current.status },
      after: { deliveryId, requeued: Boolean(requeued) },
    });
    return requeued ?? current;
  });
}
