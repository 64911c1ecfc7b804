import type { Executor } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import { announceDeliveries } from './outbox.js';
import * as repo from './repository.js';

// What the webhook registry needs of the engine: a new signing secret, and the check of a target URL.
export { newSecret } from './signing.js';
export { checkWebhookUrl, UrlProblem } from './url-guard.js';
// What the rate sources' reader shares with the sender: one rule for a request to an address someone typed in.
export { outboundTargets, pinnedLookup } from './outbound.js';

/*
 * The delivery log of a webhook, for the registry, which has checked that the caller sees the webhook first.
 */

export function listDeliveries(db: Executor, webhookId: string, params: ListParams) {
  return repo.listDeliveries(db, webhookId, params);
}

/** A delivery with its payload and every attempt; undefined when the webhook has no such delivery. */
export async function getDelivery(db: Executor, webhookId: string, deliveryId: string) {
  const delivery = await repo.findDelivery(db, webhookId, deliveryId);
  if (!delivery) return undefined;
  return { delivery, attempts: await repo.listAttempts(db, delivery.id) };
}

export function findDelivery(db: Executor, webhookId: string, deliveryId: string) {
  return repo.findDelivery(db, webhookId, deliveryId);
}

/**
 * Makes a delivery due now and wakes the workers. Undefined when an attempt of it is in flight right now (that
 * attempt is the retry) or the webhook is no longer active.
 */
export async function requeueDelivery(db: Executor, webhookId: string, deliveryId: string) {
  const requeued = await repo.requeueDelivery(db, webhookId, deliveryId);
  if (requeued) await announceDeliveries(db);
  return requeued;
}

/** Abandons the pending deliveries of a webhook being deleted or deactivated; returns how many, for the metrics. */
export function abandonDeliveriesOf(tx: Executor, webhookId: string, reason = 'webhook deleted'): Promise<number> {
  return repo.abandonPending(tx, [webhookId], reason);
}

/** Deletes every delivery of these webhooks, with its attempts (on delete cascade). */
export async function deleteDeliveriesOf(tx: Executor, webhookIds: string[]): Promise<void> {
  await repo.deleteDeliveries(tx, webhookIds);
}
