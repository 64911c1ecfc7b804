import type { Scope } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import { badRequest, notFound } from '../../http/errors.js';
import { findCurrencies, findPricing } from '../catalog/repository.js';
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

/**
 * Prices an exchange of `amount` with the active offer of an active exchange in scope (section 4 of the
 * decisions). Used by the estimate endpoint and by order creation, so both give the same figures.
 */
export async function quote(db: Executor, scope: Scope, req: QuoteRequest): Promise<Quote> {
  if (req.sourceCurrencyId === req.destCurrencyId) {
    throw badRequest('destCurrencyId must differ from sourceCurrencyId', { destCurrencyId: 'sameAsSource' });
  }
  const [pricing, currencies] = await Promise.all([
    findPricing(db, scope, req.exchangeId, req.sourceCurrencyId, req.destCurrencyId),
    findCurrencies(db, [req.sourceCurrencyId, req.destCurrencyId]),
  ]);
  if (!pricing || !pricing.exchange_active) throw notFound('exchange');
  const source = currencies.find((c) => c.id === req.sourceCurrencyId);
  const dest = currencies.find((c) => c.id === req.destCurrencyId);
  if (pricing.offer_id === null || !source || !dest) throw notFound('offer');

  const isReverse = pricing.currency1_id !== req.sourceCurrencyId;
  const offer = { rate: pricing.rate!, minAmount: pricing.min_amount!, maxAmount: pricing.max_amount! };
  const outcome = estimate({ offer, isReverse, amount: req.amount, direction: req.direction, sourceDecimals: source.decimals, destDecimals: dest.decimals });
  if (!outcome.ok) {
    const currency1 = isReverse ? dest : source;
    const given = req.direction === 'source' ? source : dest;
    const limit = outcome.limit === undefined ? '' : new Dec(outcome.limit).toFixed();
    const messages = {
      belowMinimum: `amount is below the minimum of ${limit} ${currency1.code} for this offer`,
      aboveMaximum: `amount is above the maximum of ${limit} ${currency1.code} for this offer`,
      tooManyDecimals: `amount has more than ${limit} decimal places, the precision of ${given.code}`,
      tooSmall: 'amount is too small to be exchanged',
    };
    throw badRequest(messages[outcome.code], { amount: outcome.code });
  }
  return {
    exchangeId: pricing.exchange_id,
    offerId: pricing.offer_id,
    rate: pricing.rate!,
    isReverse,
    sourceAmount: outcome.sourceAmount,
    destAmount: outcome.destAmount,
    sourceCurrency: toQuoted(source),
    destCurrency: toQuoted(dest),
  };
}

function toQuoted(c: { id: number; name: string; code: string; decimals: number; image_id: string | null; image_path: string | null }): QuotedCurrency {
  return { id: c.id, name: c.name, code: c.code, decimals: c.decimals, imageId: c.image_id, imagePath: c.image_path };
}

/** A JSON number from the request as an exact decimal string (JS prints the shortest round-trip form). */
export function amountFromJson(value: number): string {
  return new Dec(value).toFixed();
}
