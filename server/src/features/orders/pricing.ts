import { priceWith, type PricingRow, type QuoteFailure } from '../catalog/service.js';
import { amountFromJson, Dec } from '../pricing/decimal.js';
import { OrderError } from './errors.js';
import type { OrderCurrency, References } from './references.js';
import type { CreateOrderBody } from './schemas.js';

export interface PricedOrder {
  clientAmount: string;
  exchangeAmount: string;
  offerId: number | null;
  rate: string | null;
  isReverse: boolean | null;
  /** The reference of the offer's rate when it was made from a source (docs/rates.md); null otherwise. */
  referenceRate: string | null;
}

/** Which amounts an order must carry: exactly one for `offer` (the other is priced), both for `finop`. */
export function checkAmountsGiven(
  body: Pick<CreateOrderBody, 'operationType' | 'clientAmount' | 'exchangeAmount' | 'quoteId'>,
): void {
  const client = body.clientAmount !== undefined;
  const exchange = body.exchangeAmount !== undefined;
  if (body.quoteId !== undefined) {
    if (body.operationType !== 'offer') throw OrderError.quoteForOfferOnly();
    if (client || exchange) throw OrderError.quoteWithAmount(client ? 'clientAmount' : 'exchangeAmount');
    return;
  }
  if (body.operationType === 'offer') {
    if (client && exchange) throw OrderError.bothAmounts();
    if (!client && !exchange) throw OrderError.amountMissing();
    return;
  }
  const missing = [...(client ? [] : ['clientAmount']), ...(exchange ? [] : ['exchangeAmount'])];
  if (missing.length > 0) throw OrderError.finopAmountsMissing(missing);
}

/**
 * Prices an offer order with the estimate's own function (same offer choice, rounding and limits), so its
 * amounts equal the estimate's to the last decimal. The given amount decides the direction. `pricing` is the
 * row findOfferForPricing read for the order's exchange and pair (none for a finop order).
 */
export function priceOrder(body: CreateOrderBody, refs: References, pricing: PricingRow | undefined): PricedOrder {
  if (body.operationType === 'finop') return priceFinop(body.clientAmount!, body.exchangeAmount!, refs);
  const field = body.clientAmount !== undefined ? 'clientAmount' : 'exchangeAmount';
  const outcome = priceWith(
    pricing,
    refs.currency1,
    refs.currency2,
    amountFromJson(body[field]!),
    field === 'clientAmount' ? 'source' : 'dest',
  );
  if (!outcome.ok) throw pricingError(outcome.failure, field);
  const p = outcome.price;
  return {
    clientAmount: p.sourceAmount,
    exchangeAmount: p.destAmount,
    offerId: p.offerId,
    rate: p.rate,
    isReverse: p.isReverse,
    referenceRate: pricing!.reference_rate,
  };
}

function priceFinop(clientAmount: number, exchangeAmount: number, refs: References): PricedOrder {
  const client = exact('clientAmount', clientAmount, refs.currency1);
  const exchange = exact('exchangeAmount', exchangeAmount, refs.currency2);
  return {
    clientAmount: client,
    exchangeAmount: exchange,
    offerId: null,
    rate: null,
    isReverse: null,
    referenceRate: null,
  };
}

/** A finop amount is taken as given, but never finer than its currency can express. */
function exact(field: string, value: number, currency: OrderCurrency): string {
  const amount = amountFromJson(value);
  if (new Dec(amount).decimalPlaces() > currency.decimals) {
    throw OrderError.tooManyDecimals(field, currency.decimals, currency.code);
  }
  return amount;
}

/** The estimate's failures in the terms of an order body (references were checked before, so these are rare). */
function pricingError(failure: QuoteFailure, field: string) {
  switch (failure.kind) {
    case 'sameCurrency':
      return OrderError.sameCurrency();
    case 'notFound':
      return failure.resource === 'offer' ? OrderError.offerNotFound() : OrderError.cashboxNotFound();
    case 'amount':
      return OrderError.amountRefused(field, failure.code, failure.message);
  }
}
