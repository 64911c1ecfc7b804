import { badRequest } from '../../http/errors.js';
import { priceWith, type PricingRow, type QuoteFailure } from '../catalog/service.js';
import { amountFromJson, Dec } from '../pricing/decimal.js';
import type { OrderCurrency, References } from './references.js';
import type { CreateOrderBody } from './schemas.js';

export interface PricedOrder {
  clientAmount: string;
  exchangeAmount: string;
  offerId: number | null;
  rate: string | null;
  isReverse: boolean | null;
}

/** Which amounts an order must carry: exactly one for `offer` (the other is priced), both for `finop`. */
export function checkAmountsGiven(body: Pick<CreateOrderBody, 'operationType' | 'clientAmount' | 'exchangeAmount' | 'quoteId'>): void {
  const client = body.clientAmount !== undefined;
  const exchange = body.exchangeAmount !== undefined;
  if (body.quoteId !== undefined) {
    if (body.operationType !== 'offer') throw badRequest('quoteId is for offer orders only', { quoteId: 'notAllowed' });
    if (client || exchange) throw badRequest('give either quoteId or an amount, not both: the quote fixes both amounts', { [client ? 'clientAmount' : 'exchangeAmount']: 'notAllowed' });
    return;
  }
  if (body.operationType === 'offer') {
    if (client && exchange) throw badRequest('give either clientAmount or exchangeAmount for an offer order, not both', { exchangeAmount: 'notAllowed' });
    if (!client && !exchange) throw badRequest('clientAmount or exchangeAmount is required for an offer order', { clientAmount: 'required' });
    return;
  }
  const errors: Record<string, string> = {};
  if (!client) errors.clientAmount = 'required';
  if (!exchange) errors.exchangeAmount = 'required';
  const missing = Object.keys(errors);
  if (missing.length > 0) throw badRequest(missing.map((f) => `${f} is required for a finop order`), errors);
}

/**
 * Prices an offer order with the estimate's own function (same offer choice, rounding and limits), so its
 * amounts equal the estimate's to the last decimal. The given amount decides the direction. `pricing` is the
 * row findOfferForPricing read for the order's exchange and pair (none for a finop order).
 */
export function priceOrder(body: CreateOrderBody, refs: References, pricing: PricingRow | undefined): PricedOrder {
  if (body.operationType === 'finop') return priceFinop(body.clientAmount!, body.exchangeAmount!, refs);
  const field = body.clientAmount !== undefined ? 'clientAmount' : 'exchangeAmount';
  const outcome = priceWith(pricing, refs.currency1, refs.currency2, amountFromJson(body[field]!), field === 'clientAmount' ? 'source' : 'dest');
  if (!outcome.ok) throw pricingError(outcome.failure, field);
  const p = outcome.price;
  return { clientAmount: p.sourceAmount, exchangeAmount: p.destAmount, offerId: p.offerId, rate: p.rate, isReverse: p.isReverse };
}

function priceFinop(clientAmount: number, exchangeAmount: number, refs: References): PricedOrder {
  const client = exact('clientAmount', clientAmount, refs.currency1);
  const exchange = exact('exchangeAmount', exchangeAmount, refs.currency2);
  return { clientAmount: client, exchangeAmount: exchange, offerId: null, rate: null, isReverse: null };
}

/** A finop amount is taken as given, but never finer than its currency can express. */
function exact(field: string, value: number, currency: OrderCurrency): string {
  const amount = amountFromJson(value);
  if (new Dec(amount).decimalPlaces() > currency.decimals) {
    throw badRequest(`${field} has more than ${currency.decimals} decimal places, the precision of ${currency.code}`, { [field]: 'tooManyDecimals' });
  }
  return amount;
}

/** The estimate's failures in the terms of an order body (references were checked before, so these are rare). */
function pricingError(failure: QuoteFailure, field: string) {
  switch (failure.kind) {
    case 'sameCurrency': return badRequest('currency2 must differ from currency1', { currency2: 'sameAsSource' });
    case 'notFound': return failure.resource === 'offer'
      ? badRequest('offer not found: the cashbox has no active offer for this currency pair', { offer: 'notFound' })
      : badRequest('cashbox not found', { cashbox: 'notFound' });
    case 'amount': return badRequest(failure.message(field), { [field]: failure.code });
  }
}
