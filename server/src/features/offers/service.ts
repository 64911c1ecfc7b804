import type { Database, Executor, Tx } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { OfferError } from './errors.js';
import type { Audit } from '../audit/service.js';
import { enqueue } from '../delivery/outbox.js';
import { normalize } from '../pricing/decimal.js';
import { findCurrencies } from '../currencies/service.js';
import { exchangeInScope } from '../exchanges/service.js';
import * as present from '../catalog/presenters.js';
import { checkAmounts, decimalInput } from './amounts.js';
import { catalogChanged } from '../catalog/snapshot-local.js';
import * as repo from './repository.js';
import type { CreateOfferInput, UpdateOfferInput } from './schemas.js';

// Reads of the partner catalogue (its routes, snapshot and rates.xml).
export type { PricingRow, RateFilter } from './repository.js';
export const OFFER_COLUMNS = repo.OFFER_COLUMNS;
export const listRates: typeof repo.listRates = (...args) => repo.listRates(...args);
export const listPartnerOffers: typeof repo.listOffers = (...args) => repo.listOffers(...args);
export const findPricing: typeof repo.findPricing = (...args) => repo.findPricing(...args);

/** Offers read the same in the back office as in the partner API, active or not, over the caller's branch(es). */
export async function listOffers(db: Executor, scope: Scope, params: ListParams) {
  return mapPage(await repo.listOffers(db, scope, params), present.offer);
}

/**
 * Offer changes. Each create or change writes its `offer.updated` deliveries in the same transaction
 * (docs/decisions.md, "Webhooks"), so a webhook hears of exactly the changes that committed.
 */
export async function createOffer(db: Database, audit: Audit, scope: Scope, input: CreateOfferInput) {
  const amounts = checkAmounts({
    rate: decimalInput('rate', input.rate),
    minAmount: input.minAmount === undefined ? '0' : decimalInput('minAmount', input.minAmount),
    maxAmount: decimalInput('maxAmount', input.maxAmount),
  });
  if (input.currency1Id === input.currency2Id) throw OfferError.offerPairSameCurrency();
  try {
    return await committed(
      db,
      db.transaction().execute(async (tx) => {
        if (!(await exchangeInScope(tx, scope, input.exchangeId))) throw OfferError.exchangeFieldNotFound();
        const found = new Set((await findCurrencies(tx, [input.currency1Id, input.currency2Id])).map((c) => c.id));
        for (const field of ['currency1Id', 'currency2Id'] as const)
          if (!found.has(input[field])) throw OfferError.currencyFieldNotFound(field);
        const id = await repo.insertOffer(tx, {
          ...amounts,
          exchangeId: input.exchangeId,
          currency1Id: input.currency1Id,
          currency2Id: input.currency2Id,
          isActive: input.isActive ?? true,
        });
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
      const amounts = checkAmounts({
        rate: patch.rate === undefined ? current.rate : decimalInput('rate', patch.rate),
        minAmount: patch.minAmount === undefined ? current.min_amount : decimalInput('minAmount', patch.minAmount),
        maxAmount: patch.maxAmount === undefined ? current.max_amount : decimalInput('maxAmount', patch.maxAmount),
      });
      const before = exact(present.offer(await repo.findOfferDetail(tx, id)));
      await repo.updateOffer(tx, id, { ...amounts, isActive: patch.isActive });
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
function exact(o: ReturnType<typeof present.offer>) {
  return { ...o, rate: normalize(o.rate), minAmount: normalize(o.minAmount), maxAmount: normalize(o.maxAmount) };
}

/** Reads the offer as it now is, queues `offer.updated` for it and returns its response shape and branch. */
async function publish(tx: Tx, id: number) {
  const o = await repo.findOfferDetail(tx, id);
  await enqueue(tx, [
    {
      event: 'offer.updated',
      branchId: o.branch_id,
      exchangeId: o.exchange_id,
      data: {
        id: o.id,
        exchangeId: o.exchange_id,
        currency1: { id: o.c1_id, code: o.c1_code },
        currency2: { id: o.c2_id, code: o.c2_code },
        rate: normalize(o.rate),
        minAmount: normalize(o.min_amount),
        maxAmount: normalize(o.max_amount),
        isActive: o.is_active,
        updatedAt: o.updated_at.toISOString(),
      },
    },
  ]);
  return { view: present.offer(o), branchId: o.branch_id };
}
