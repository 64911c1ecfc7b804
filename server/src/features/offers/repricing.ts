import type { Database, Tx } from '../../db/database.js';
import { enqueue } from '../delivery/outbox.js';
import { catalogChanged } from '../catalog/snapshot-local.js';
import { Dec } from '../pricing/decimal.js';
import { isJump, priceFromQuotes } from '../pricing/market-rate.js';
import { offerUpdated } from './presenters.js';
import { pricingOfRow } from './pricing.js';
import * as repo from './repository.js';
import type { Repriced, SourcedOfferRow } from './repository.js';

/**
 * Re-prices, in one transaction, every offer priced from the source with the quotes just read ({"USD/RUB": "91.55"}:
 * 1 USD is 91.55 RUB), as docs/rates.md says: a new rate (and its history row and `offer.updated`) only when it
 * changes; a jump suspends at once; a sane reference lifts a suspension. One read of the offers, one update, one
 * history insert, one outbox insert, however many offers the source prices.
 */
export async function applySourceQuotes(
  db: Database,
  sourceId: number,
  quotes: Readonly<Record<string, string>>,
  readAt: Date,
): Promise<void> {
  const touched = await db.transaction().execute(async (tx) => {
    const offers = await repo.lockOffersOfSource(tx, sourceId);
    const plans = offers.map((o) => reprice(o, quotes, readAt)).filter((p) => p !== undefined);
    await repo.applyRepriced(tx, plans);
    await repo.insertRateHistory(
      tx,
      plans.filter((p) => p.newRate).map((p) => ({ offerId: p.id, rate: p.rate, referenceRate: p.referenceRate })),
    );
    await publishAll(
      tx,
      plans.filter((p) => p.changed).map((p) => p.id),
    );
    return plans.length;
  });
  if (touched > 0) catalogChanged(db);
}

/**
 * The source has not succeeded for its maxAgeSeconds: its priced offers that are still active are suspended
 * (reason "stale"). Called on each poll tick while that holds; only the offers it suspends are announced.
 */
export async function suspendStaleOffers(db: Database, sourceId: number, _now: Date): Promise<void> {
  const suspended = await db.transaction().execute(async (tx) => {
    const ids = await repo.suspendActiveOfSource(tx, sourceId, 'stale');
    await publishAll(tx, ids);
    return ids.length;
  });
  if (suspended > 0) catalogChanged(db);
}

type Plan = Repriced & { newRate: boolean };

/**
 * What a read does to one offer; undefined when it leaves the offer as it is.
 * - no rate for the pair in this read (the pair missing, or a rate of 0 or less): the offer keeps its rate, and is
 *   suspended as stale once its reference is older than the source's maxAgeSeconds;
 * - a jump (the reference more than maxJumpPercent away from the last applied one): suspended at once, rate and
 *   reference kept, so the jump is measured from the last applied reference until one comes back within it;
 * - otherwise the rate is applied and any suspension lifted.
 */
function reprice(o: SourcedOfferRow, quotes: Readonly<Record<string, string>>, readAt: Date): Plan | undefined {
  const keep = {
    id: o.id,
    rate: o.rate,
    referenceRate: o.reference_rate,
    referenceAt: o.reference_at,
    state: o.pricing_state,
    reason: o.suspended_reason,
    changed: false,
    newRate: false,
  };
  const priced = priceFromQuotes(quotes, pricingOfRow(o));
  if (!priced.ok) {
    const age = o.reference_at === null ? Infinity : readAt.getTime() - o.reference_at.getTime();
    if (o.pricing_state === 'active' && age > o.max_age_seconds * 1000)
      return { ...keep, state: 'suspended', reason: 'stale', changed: true };
    return undefined;
  }
  if (
    o.max_jump_percent !== null &&
    o.reference_rate !== null &&
    isJump(o.reference_rate, priced.reference, o.max_jump_percent)
  ) {
    if (o.pricing_state === 'suspended' && o.suspended_reason === 'jump') return undefined;
    return { ...keep, state: 'suspended', reason: 'jump', changed: o.pricing_state === 'active' };
  }
  const newRate = !new Dec(priced.rate).eq(o.rate);
  return {
    id: o.id,
    rate: priced.rate,
    referenceRate: priced.reference,
    referenceAt: readAt,
    state: 'active',
    reason: null,
    changed: newRate || o.pricing_state === 'suspended',
    newRate,
  };
}

/** `offer.updated` for each offer, as it now is; a suspended one is inactive to partners. */
async function publishAll(tx: Tx, ids: readonly number[]) {
  const rows = await repo.findOfferDetails(tx, ids);
  await enqueue(tx, rows.map(offerUpdated));
}
