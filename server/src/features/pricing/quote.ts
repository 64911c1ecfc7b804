import type { Scope } from '../../db/scope.js';
import type { Executor } from '../../db/database.js';
import { badRequest, notFound } from '../../http/errors.js';
import { findCurrencies, findPricing, type PricingRow } from '../catalog/repository.js';
import { Dec } from './decimal.js';
import { estimate, type Direction } from './estimate.js';

export interface QuoteRequest {
  exchangeId: number;
  sourceCurrencyId: number;
  destCurrencyId: number;
  /** Decimal string, exactly as the partner sent it. */
  amount: string;
  direction: Direction;
}

export interface QuotedCurrency { id: number; name: string; code: string; decimals: number; imageId: string | null; imagePath: string | null }

export interface Quote {
  exchangeId: number;
  offerId: number;
  rate: string;
  isReverse: boolean;
  sourceAmount: string;
  destAmount: string;
  sourceCurrency: QuotedCurrency;
  destCurrency: QuotedCurrency;
}

export type AmountProblem = 'belowMinimum' | 'aboveMaximum' | 'tooManyDecimals' | 'tooSmall';

/** Why a quote could not be made, as a value, so the estimate and order creation can report it in their own terms. */
export type QuoteFailure =
  | { kind: 'sameCurrency' }
  | { kind: 'notFound'; resource: 'exchange' | 'offer' }
  | { kind: 'amount'; code: AmountProblem; message: (field: string) => string };

export type QuoteOutcome = { ok: true; quote: Quote } | { ok: false; failure: QuoteFailure };

/**
 * Prices an exchange of `amount` with the active offer of an active exchange in scope (section 4 of the
 * decisions). Used by the estimate endpoint and by order creation, so both give the same figures.
 */
export async function quote(db: Executor, scope: Scope, req: QuoteRequest): Promise<Quote> {
  const outcome = await tryQuote(db, scope, req);
  if (outcome.ok) return outcome.quote;
  const f = outcome.failure;
  if (f.kind === 'sameCurrency') throw badRequest('destCurrencyId must differ from sourceCurrencyId', { destCurrencyId: 'sameAsSource' });
  if (f.kind === 'notFound') throw notFound(f.resource);
  throw badRequest(f.message('amount'), { amount: f.code });
}

export async function tryQuote(db: Executor, scope: Scope, req: QuoteRequest): Promise<QuoteOutcome> {
  if (req.sourceCurrencyId === req.destCurrencyId) return { ok: false, failure: { kind: 'sameCurrency' } };
  const [pricing, currencies] = await Promise.all([
    findPricing(db, scope, req.exchangeId, req.sourceCurrencyId, req.destCurrencyId),
    findCurrencies(db, [req.sourceCurrencyId, req.destCurrencyId]),
  ]);
  const source = currencies.find((c) => c.id === req.sourceCurrencyId);
  const dest = currencies.find((c) => c.id === req.destCurrencyId);
  const priced = priceWith(pricing, source, dest, req);
  if (!priced.ok) return priced;
  const p = priced.price;
  return {
    ok: true,
    quote: {
      exchangeId: req.exchangeId, offerId: p.offerId, rate: p.rate, isReverse: p.isReverse, sourceAmount: p.sourceAmount, destAmount: p.destAmount,
      sourceCurrency: toQuoted(source!), destCurrency: toQuoted(dest!),
    },
  };
}

/** What pricing needs of a currency: its code for messages and its decimals for rounding. */
export interface PricedCurrency { id: number; code: string; decimals: number }

export interface Price { offerId: number; rate: string; isReverse: boolean; sourceAmount: string; destAmount: string }

export type PriceOutcome = { ok: true; price: Price } | { ok: false; failure: QuoteFailure };

/**
 * Prices `req` with the pricing row and currencies already read, without a query of its own, so order
 * creation can read them together with its other references.
 */
export function priceWith(pricing: PricingRow | undefined, source: PricedCurrency | undefined, dest: PricedCurrency | undefined, req: Pick<QuoteRequest, 'amount' | 'direction' | 'sourceCurrencyId'>): PriceOutcome {
  const fail = (failure: QuoteFailure): PriceOutcome => ({ ok: false, failure });
  if (!pricing || !pricing.exchange_active) return fail({ kind: 'notFound', resource: 'exchange' });
  if (pricing.offer_id === null || !source || !dest) return fail({ kind: 'notFound', resource: 'offer' });

  const isReverse = pricing.currency1_id !== req.sourceCurrencyId;
  const offer = { rate: pricing.rate!, minAmount: pricing.min_amount!, maxAmount: pricing.max_amount! };
  const outcome = estimate({ offer, isReverse, amount: req.amount, direction: req.direction, sourceDecimals: source.decimals, destDecimals: dest.decimals });
  if (!outcome.ok) {
    const currency1 = isReverse ? dest : source;
    const given = req.direction === 'source' ? source : dest;
    const limit = outcome.limit === undefined ? '' : new Dec(outcome.limit).toFixed();
    const messages: Record<AmountProblem, (field: string) => string> = {
      belowMinimum: (field) => `${field} is below the minimum of ${limit} ${currency1.code} for this offer`,
      aboveMaximum: (field) => `${field} is above the maximum of ${limit} ${currency1.code} for this offer`,
      tooManyDecimals: (field) => `${field} has more than ${limit} decimal places, the precision of ${given.code}`,
      tooSmall: (field) => `${field} is too small to be exchanged`,
    };
    return fail({ kind: 'amount', code: outcome.code, message: messages[outcome.code] });
  }
  return {
    ok: true,
    price: { offerId: pricing.offer_id, rate: pricing.rate!, isReverse, sourceAmount: outcome.sourceAmount, destAmount: outcome.destAmount },
  };
}

function toQuoted(c: { id: number; name: string; code: string; decimals: number; image_id: string | null; image_path: string | null }): QuotedCurrency {
  return { id: c.id, name: c.name, code: c.code, decimals: c.decimals, imageId: c.image_id, imagePath: c.image_path };
}

/**
 * A JSON number from the request as an exact decimal string (JS prints the shortest round-trip form). decimal.js
 * parses that same form, so it is needed only to write out an exponent (below 1e-6, from 1e21); otherwise it cost
 * 2-3 µs of each estimate and order for the same digits (docs/benchmarks.md, change 28).
 */
export function amountFromJson(value: number): string {
  const text = String(value);
  return text.includes('e') ? new Dec(value).toFixed() : text;
}
