import type { Executor } from '../../db/database.js';
import type { Scope } from '../../db/scope.js';
import type { Direction } from '../pricing/estimate.js';
import { price, type AmountProblem, type Price, type PricedCurrency } from '../pricing/price.js';
import { findCurrencies } from '../currencies/service.js';
import { exchangesOutsideBranch, findCashbox } from '../exchanges/service.js';
import { findPricing, type PricingRow } from '../offers/service.js';
import { availableInBranch, availableOf, checkReserve, positionKey } from '../cash/service.js';
import type { Available, BranchCatalog } from './snapshot-build.js';
import { pricingOf } from './snapshot-reads.js';
import { CatalogError } from './errors.js';

export type { BranchCatalog, PricingRow };
export { CatalogSnapshots } from './snapshot-store.js';
export { catalogChanged } from './snapshot-local.js';

/**
 * What other features read of the catalogue: a new order's cashbox (an exchange in the key's scope) and
 * currencies; the exchanges a staff user or payment method names, checked against a branch.
 */
export { exchangesOutsideBranch, findCashbox, findCurrencies };

export interface QuoteRequest {
  exchangeId: number;
  sourceCurrencyId: number;
  destCurrencyId: number;
  /** Decimal string, exactly as the partner sent it. */
  amount: string;
  direction: Direction;
}

export interface QuotedCurrency {
  id: number;
  name: string;
  code: string;
  decimals: number;
  imageId: string | null;
  imagePath: string | null;
}

export interface Quote {
  exchangeId: number;
  offerId: number;
  rate: string;
  isReverse: boolean;
  sourceAmount: string;
  destAmount: string;
  /** The market reference the offer's rate was made from; null for a fixed-rate offer (staff only, never shown). */
  referenceRate: string | null;
  sourceCurrency: QuotedCurrency;
  destCurrency: QuotedCurrency;
}

/** Why an offer could not price a request, as a value, so the estimate and order creation report it in their own terms. */
export type QuoteFailure =
  | { kind: 'sameCurrency' }
  | { kind: 'notFound'; resource: 'exchange' | 'offer' }
  | { kind: 'amount'; code: AmountProblem; message: (field: string) => string };

export type OfferPrice = { ok: true; price: Price } | { ok: false; failure: QuoteFailure };

/**
 * Prices an exchange of `amount` with the active offer of an active exchange in scope (docs/decisions.md,
 * "Catalogue and estimate"): loads the offer and both currencies, and prices with pricing/, as order creation does. With the
 * branch's snapshot (the scope's branch) it reads them from memory: an estimate or a quote is an offer of the
 * moment, while an order prices against the offer row read from the database in its own request.
 */
export function quote(db: Executor, scope: Scope, req: QuoteRequest, snapshot?: BranchCatalog): Quote | Promise<Quote> {
  if (req.sourceCurrencyId === req.destCurrencyId) throw quoteError({ kind: 'sameCurrency' });
  // From the snapshot the quote is made at once: an estimate's handler then sends it without waiting a turn.
  if (snapshot) {
    const pricing = pricingOf(snapshot, req.exchangeId, req.sourceCurrencyId, req.destCurrencyId);
    return covered(
      quoted(pricing, snapshot.currencies.get(req.sourceCurrencyId), snapshot.currencies.get(req.destCurrencyId), req),
      snapshot.available.get(positionKey(req.exchangeId, req.destCurrencyId)),
    );
  }
  return Promise.all([
    findPricing(db, scope, req.exchangeId, req.sourceCurrencyId, req.destCurrencyId),
    findCurrencies(db, [req.sourceCurrencyId, req.destCurrencyId]),
    availableOf(db, req.exchangeId, req.destCurrencyId),
  ]).then(([pricing, currencies, available]) =>
    covered(
      quoted(
        pricing,
        currencies.find((c) => c.id === req.sourceCurrencyId),
        currencies.find((c) => c.id === req.destCurrencyId),
        req,
      ),
      available,
    ),
  );
}

/** A quote the exchange's cash covers (docs/cash.md): its payout within what is available when the currency is tracked. */
function covered(q: Quote, available: string | undefined): Quote {
  checkReserve(available, q.destAmount, q.destCurrency.code);
  return q;
}

/**
 * Rows read from the database with their payout currency's available cash, as the snapshot's carry it: the read
 * of the positions runs beside the rows' own.
 */
export async function withAvailable<R extends { exchange_id: number; c2_id: number }>(
  db: Executor,
  scope: Scope,
  rows: Promise<R[]>,
): Promise<(R & Available)[]> {
  const [list, available] = await Promise.all([rows, availableInBranch(db, scope.branchId)]);
  return list.map((r) => Object.assign(r, { available: available.get(positionKey(r.exchange_id, r.c2_id)) }));
}

type QuotableCurrency = Parameters<typeof toQuoted>[0];

function quoted(
  pricing: PricingRow | undefined,
  source: QuotableCurrency | undefined,
  dest: QuotableCurrency | undefined,
  req: QuoteRequest,
): Quote {
  const priced = priceWith(pricing, source, dest, req.amount, req.direction);
  if (!priced.ok) throw quoteError(priced.failure);
  const p = priced.price;
  return {
    exchangeId: req.exchangeId,
    offerId: p.offerId,
    rate: p.rate,
    isReverse: p.isReverse,
    sourceAmount: p.sourceAmount,
    destAmount: p.destAmount,
    referenceRate: pricing!.reference_rate,
    sourceCurrency: toQuoted(source!),
    destCurrency: toQuoted(dest!),
  };
}

function quoteError(f: QuoteFailure) {
  if (f.kind === 'sameCurrency') return CatalogError.quoteSameCurrency();
  if (f.kind === 'notFound')
    return f.resource === 'exchange' ? CatalogError.quoteExchangeNotFound() : CatalogError.quoteOfferNotFound();
  return CatalogError.quoteAmountRefused(f.code, f.message);
}

/**
 * The offer an estimate or order is priced with: the active source→dest offer of an active exchange in scope,
 * else the active dest→source one (reverse). Returns the exchange even when no offer matches.
 */
export function findOfferForPricing(db: Executor, scope: Scope, exchangeId: number, sourceId: number, destId: number) {
  return findPricing(db, scope, exchangeId, sourceId, destId);
}

/**
 * Prices with the offer and currencies already read, without a query of its own, so order creation can read
 * them together with its other references.
 */
export function priceWith(
  pricing: PricingRow | undefined,
  source: PricedCurrency | undefined,
  dest: PricedCurrency | undefined,
  amount: string,
  direction: Direction,
): OfferPrice {
  if (!pricing || !pricing.exchange_active) return { ok: false, failure: { kind: 'notFound', resource: 'exchange' } };
  if (pricing.offer_id === null || !source || !dest)
    return { ok: false, failure: { kind: 'notFound', resource: 'offer' } };
  const offer = {
    id: pricing.offer_id,
    currency1Id: pricing.currency1_id!,
    rate: pricing.rate!,
    minAmount: pricing.min_amount!,
    maxAmount: pricing.max_amount!,
  };
  const outcome = price(offer, source, dest, amount, direction);
  return outcome.ok
    ? outcome
    : { ok: false, failure: { kind: 'amount', code: outcome.code, message: outcome.message } };
}

function toQuoted(c: {
  id: number;
  name: string;
  code: string;
  decimals: number;
  image_id: string | null;
  image_path: string | null;
}): QuotedCurrency {
  return { id: c.id, name: c.name, code: c.code, decimals: c.decimals, imageId: c.image_id, imagePath: c.image_path };
}
