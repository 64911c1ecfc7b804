import type { Database, Executor, Tx } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { OfferError } from './errors.js';
import type { Audit } from '../audit/service.js';
import { enqueue } from '../delivery/outbox.js';
import { Dec, normalize } from '../pricing/decimal.js';
import { findCurrencies } from '../currencies/service.js';
import { exchangeInScope } from '../exchanges/service.js';
import { checkAmounts, decimalInput } from './amounts.js';
import { catalogChanged } from '../catalog/snapshot-local.js';
import * as repo from './repository.js';
import type { CreateOfferInput, UpdateOfferInput } from './schemas.js';
import { adminOffer, offerUpdated, rateHistoryPoint } from './presenters.js';
import { FIXED, priceFromSource, pricingColumnsOf, pricingOfRow } from './pricing.js';
import { RATE_HISTORY_LIMIT } from './schemas.js';
import { priceFromQuotes } from '../pricing/market-rate.js';
import type { PricingColumns } from './repository.js';

export { applySourceQuotes, suspendStaleOffers } from './repricing.js';
/** How long the rate history is kept (docs/rates.md, "Rate history"). */
export const RATE_HISTORY_DAYS = 90;
/** Deletes rate history past RATE_HISTORY_DAYS, batched: the delivery worker runs it with its own pruning. */
export const pruneOfferRates = (db: Executor, batch?: number) => repo.pruneOfferRates(db, RATE_HISTORY_DAYS, batch);
export const countSuspended: typeof repo.countSuspended = (...args) => repo.countSuspended(...args);

// Reads of the partner catalogue (its routes, snapshot and rates.xml).
export type { PricingRow, RateFilter } from './repository.js';
export const OFFER_COLUMNS = repo.OFFER_COLUMNS;
export const listRates: typeof repo.listRates = (...args) => repo.listRates(...args);
export const listPartnerOffers: typeof repo.listPartnerOffers = (...args) => repo.listPartnerOffers(...args);
export const findPricing: typeof repo.findPricing = (...args) => repo.findPricing(...args);

/** Offers read the same in the back office as in the partner API, active or not, over the caller's branch(es). */
export async function listOffers(db: Executor, scope: Scope, params: ListParams) {
  return mapPage(await repo.listOffers(db, scope, params), adminOffer);
}

/**
 * Offer changes. Each create or change writes its `offer.updated` deliveries in the same transaction
 * (docs/decisions.md, "Webhooks"), so a webhook hears of exactly the changes that committed.
 */
export async function createOffer(db: Database, audit: Audit, scope: Scope, input: CreateOfferInput) {
  const bySource = input.pricing?.mode === 'source';
  if (bySource && input.rate !== undefined) throw OfferError.rateSetBySource();
  if (!bySource && input.rate === undefined) throw OfferError.rateRequired();
  const limits = {
    minAmount: input.minAmount === undefined ? '0' : decimalInput('minAmount', input.minAmount),
    maxAmount: decimalInput('maxAmount', input.maxAmount),
  };
  if (input.rate !== undefined) checkAmounts({ rate: decimalInput('rate', input.rate), ...limits });
  if (input.currency1Id === input.currency2Id) throw OfferError.offerPairSameCurrency();
  try {
    return await committed(
      db,
      db.transaction().execute(async (tx) => {
        if (!(await exchangeInScope(tx, scope, input.exchangeId))) throw OfferError.exchangeFieldNotFound();
        const found = new Set((await findCurrencies(tx, [input.currency1Id, input.currency2Id])).map((c) => c.id));
        for (const field of ['currency1Id', 'currency2Id'] as const)
          if (!found.has(input[field])) throw OfferError.currencyFieldNotFound(field);
        const priced =
          input.pricing?.mode === 'source'
            ? await priceFromSource(tx, input.exchangeId, input.pricing, new Date())
            : { rate: decimalInput('rate', input.rate!), columns: FIXED };
        const amounts = checkAmounts({ rate: priced.rate, ...limits });
        const id = await repo.insertOffer(
          tx,
          {
            ...amounts,
            exchangeId: input.exchangeId,
            currency1Id: input.currency1Id,
            currency2Id: input.currency2Id,
            isActive: input.isActive ?? true,
          },
          priced.columns,
        );
        await repo.insertRateHistory(tx, [
          { offerId: id, rate: amounts.rate, referenceRate: priced.columns.reference_rate },
        ]);
        const offer = await publish(tx, id);
        await audit.record(tx, {
          action: 'offer.create',
          entityType: 'offer',
          entityId: id,
          branchId: offer.branchId,
          after: exact(offer.view),
        });
        return offer.view;
      }),
    );
  } catch (err) {
    if (uniqueViolation(err) === 'offers_pair_key') {
      throw OfferError.offerPairTaken();
    }
    throw err;
  }
}

export async function updateOffer(db: Database, audit: Audit, scope: Scope, id: number, patch: UpdateOfferInput) {
  return committed(
    db,
    db.transaction().execute(async (tx) => {
      const current = await repo.lockOffer(tx, scope, id);
      if (!current) throw OfferError.offerNotFound();
      const mode = patch.pricing?.mode ?? current.pricing_mode;
      if (mode === 'source' && patch.rate !== undefined) throw OfferError.rateSetBySource();
      // A new `pricing` replaces the old as a whole; a source pricing is applied at once from the last quotes.
      const priced: { rate: string; columns?: PricingColumns } =
        patch.pricing?.mode === 'source'
          ? await priceFromSource(tx, current.exchange_id, patch.pricing, new Date())
          : patch.pricing?.mode === 'fixed'
            ? { rate: patch.rate === undefined ? current.rate : decimalInput('rate', patch.rate), columns: FIXED }
            : { rate: patch.rate === undefined ? current.rate : decimalInput('rate', patch.rate) };
      const amounts = checkAmounts({
        rate: priced.rate,
        minAmount: patch.minAmount === undefined ? current.min_amount : decimalInput('minAmount', patch.minAmount),
        maxAmount: patch.maxAmount === undefined ? current.max_amount : decimalInput('maxAmount', patch.maxAmount),
      });
      const before = exact(adminOffer(await repo.findOfferDetail(tx, id)));
      await repo.updateOffer(tx, id, { ...amounts, isActive: patch.isActive }, priced.columns);
      if (!new Dec(amounts.rate).eq(current.rate))
        await repo.insertRateHistory(tx, [
          { offerId: id, rate: amounts.rate, referenceRate: priced.columns?.reference_rate ?? current.reference_rate },
        ]);
      const offer = await publish(tx, id);
      await audit.record(tx, {
        action: 'offer.update',
        entityType: 'offer',
        entityId: id,
        branchId: offer.branchId,
        before,
        after: exact(offer.view),
      });
      return offer.view;
    }),
  );
}

/** This process's snapshots drop the change as soon as it commits (the NOTIFY reaches the others). */
async function committed<T>(db: Database, write: Promise<T>): Promise<T> {
  const result = await write;
  catalogChanged(db);
  return result;
}

/** An offer's amounts in their shortest exact form, as the audit log keeps them (strings: never a rounded double). */
function exact(o: ReturnType<typeof adminOffer>) {
  return { ...o, rate: normalize(o.rate), minAmount: normalize(o.minAmount), maxAmount: normalize(o.maxAmount) };
}

/** Reads the offer as it now is, queues `offer.updated` for it and returns its response shape and branch. */
async function publish(tx: Tx, id: number) {
  const o = await repo.findOfferDetail(tx, id);
  await enqueue(tx, [offerUpdated(o)]);
  return { view: adminOffer(o), branchId: o.branch_id };
}

/**
 * Staff take a suspended offer back (docs/rates.md, "Safety stops"): active again, re-priced from its source's last
 * quotes when they give a rate (that reference becomes the one the next jump is measured from).
 */
export async function resumeOffer(db: Database, audit: Audit, scope: Scope, id: number) {
  return committed(
    db,
    db.transaction().execute(async (tx) => {
      const current = await repo.lockOffer(tx, scope, id);
      if (!current) throw OfferError.offerNotFound();
      if (current.pricing_state !== 'suspended') throw OfferError.notSuspended();
      const before = exact(adminOffer(await repo.findOfferDetail(tx, id)));
      const source = await repo.findRateSource(tx, current.exchange_id, current.rate_source_id!);
      const priced = priceFromQuotes(source?.last_quotes ?? {}, pricingOfRow(current));
      const next = priced.ok
        ? { rate: priced.rate, reference_rate: priced.reference, reference_at: new Date() }
        : { rate: current.rate, reference_rate: current.reference_rate, reference_at: current.reference_at };
      await repo.updateOffer(
        tx,
        id,
        { rate: next.rate, minAmount: current.min_amount, maxAmount: current.max_amount },
        { ...pricingColumnsOf(current), ...next, pricing_state: 'active', suspended_reason: null },
      );
      if (!new Dec(next.rate).eq(current.rate))
        await repo.insertRateHistory(tx, [{ offerId: id, rate: next.rate, referenceRate: next.reference_rate }]);
      const offer = await publish(tx, id);
      await audit.record(tx, {
        action: 'offer.resume',
        entityType: 'offer',
        entityId: id,
        branchId: offer.branchId,
        before,
        after: exact(offer.view),
      });
      return offer.view;
    }),
  );
}

/** The offer's applied rates in [from, to] (default: the 7 days before `to`, now by default). */
export async function offerRateHistory(db: Executor, scope: Scope, id: number, range: { from?: string; to?: string }) {
  const to = range.to === undefined ? new Date() : new Date(range.to);
  const from = range.from === undefined ? new Date(to.getTime() - 7 * 86_400_000) : new Date(range.from);
  if (Number.isNaN(to.getTime()) || Number.isNaN(from.getTime())) throw OfferError.badRange();
  if (from > to) throw OfferError.badRange();
  const found = await repo.rateHistory(db, scope, id, from, to, RATE_HISTORY_LIMIT);
  if (!found) throw OfferError.offerNotFound();
  return { data: found.rows.map(rateHistoryPoint), truncated: found.truncated };
}
