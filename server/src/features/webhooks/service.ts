import type { KeyPrincipal, StaffPrincipal } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import type { WebhookEvent } from '../../db/schema.js';
import { badRequest, notFound, unprocessable } from '../../http/errors.js';
import { announceDeliveries } from './outbox.js';
import * as repo from './repository.js';
import { newSecret } from './signing.js';
import { checkWebhookUrl, UrlProblem } from './url-guard.js';

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
async function validUrl(ctx: AppContext, url: string): Promise<string> {
  try {
    return (await checkWebhookUrl(url, ctx.config.webhooks.allowPrivateUrls)).toString();
  } catch (err) {
    if (err instanceof UrlProblem) throw badRequest([err.message], { url: err.code });
    throw err;
  }
}

/** A webhook belongs to the principal of the creating key: the staff user of a personal key, or a branch key's branch. */
export async function createWebhook(ctx: AppContext, p: KeyPrincipal, input: { url: string; events: WebhookEvent[] }) {
  const url = await validUrl(ctx, input.url);
  const personal = p.keyType === 'personal';
  return repo.insertWebhook(ctx.db, {
    branchId: p.branchId, staffUserId: personal ? p.staffUserId : null, keyId: p.keyId,
    url, events: input.events, secret: newSecret(),
  });
}

export async function updateWebhook(ctx: AppContext, v: repo.Visibility, id: string, input: { url?: string; events?: WebhookEvent[] }) {
  const change: repo.WebhookChange = {};
  if (input.url !== undefined) change.url = await validUrl(ctx, input.url);
  if (input.events !== undefined) change.events = input.events;
  return found(await repo.updateWebhook(ctx.db, v, id, change));
}

export async function getWebhook(ctx: AppContext, v: repo.Visibility, id: string) {
  return found(await repo.findWebhook(ctx.db, v, id));
}

export async function deleteWebhook(ctx: AppContext, v: repo.Visibility, id: string): Promise<void> {
  const result = await ctx.db.transaction().execute((tx) => repo.deleteWebhook(tx, v, id));
  if (!result.deleted) throw notFound('webhook');
  if (result.abandoned) ctx.metrics.webhookDeliveries.inc({ outcome: 'abandoned' }, result.abandoned);
}

/** Active again with a clean failure count; deliveries abandoned at deactivation stay abandoned (retry them one by one). */
export async function reactivateWebhook(ctx: AppContext, v: repo.Visibility, id: string) {
  return found(await repo.updateWebhook(ctx.db, v, id, { is_active: true, fail_count: 0, deactivated_at: null }));
}

/** The old secret stops signing at once: attempts claimed from now on are signed with the new one. */
export async function rotateSecret(ctx: AppContext, v: repo.Visibility, id: string) {
  return found(await repo.updateWebhook(ctx.db, v, id, { secret_key: newSecret() }));
}

export async function retryDelivery(ctx: AppContext, v: repo.Visibility, id: string, deliveryId: string) {
  const hook = found(await repo.findWebhook(ctx.db, v, id));
  const current = await repo.findDelivery(ctx.db, v, id, deliveryId);
  if (!current) throw notFound('delivery');
  if (!hook.is_active) throw unprocessable('Webhook is inactive: reactivate it before retrying its deliveries');
  // A delivery whose attempt is in flight right now is left as it is: that attempt is the retry.
  const requeued = await repo.requeueDelivery(ctx.db, v, id, deliveryId);
  if (!requeued) return current.delivery;
  await announceDeliveries(ctx.db);
  return requeued;
}

function found<T>(row: T | undefined): T {
  if (!row) throw notFound('webhook');
  return row;
}
