import { Dec } from './decimal.js';
import { estimate, type Direction, type PricedOffer } from './estimate.js';

/** An offer as pricing takes it: its terms, and the currency it is quoted from (currency1). */
export interface Offer extends PricedOffer {
  id: number;
  currency1Id: number;
}

/** What pricing needs of a currency: its code for messages and its decimals for rounding. */
export interface PricedCurrency {
  id: number;
  code: string;
  decimals: number;
}

export interface Price {
  offerId: number;
  rate: string;
  isReverse: boolean;
  sourceAmount: string;
  destAmount: string;
}

export type AmountProblem = 'belowMinimum' | 'aboveMaximum' | 'tooManyDecimals' | 'tooSmall' | 'tooLarge';

/** A refused amount as a value, with its message for whichever field carried the amount. */
export type PriceOutcome =
  { ok: true; price: Price } | { ok: false; code: AmountProblem; message: (field: string) => string };

/**
 * Prices `amount` (of the source currency with direction `source`, of the destination with `dest`) with an
 * offer: the pair is reversed when the source is the offer's currency2. The estimate and order creation both
 * price through here, so they give the same figures and the same refusals.
 */
export function price(
  offer: Offer,
  source: PricedCurrency,
  dest: PricedCurrency,
  amount: string,
  direction: Direction,
): PriceOutcome {
  const isReverse = offer.currency1Id !== source.id;
  const outcome = estimate({
    offer,
    isReverse,
    amount,
    direction,
    sourceDecimals: source.decimals,
    destDecimals: dest.decimals,
  });
  if (outcome.ok) {
    return {
      ok: true,
      price: {
        offerId: offer.id,
        rate: offer.rate,
        isReverse,
        sourceAmount: outcome.sourceAmount,
        destAmount: outcome.destAmount,
      },
    };
  }
  const currency1 = isReverse ? dest : source;
  const given = direction === 'source' ? source : dest;
  const limit = outcome.limit === undefined ? '' : new Dec(outcome.limit).toFixed();
  const messages: Record<AmountProblem, (field: string) => string> = {
    belowMinimum: (field) => `${field} is below the minimum of ${limit} ${currency1.code} for this offer`,
    aboveMaximum: (field) => `${field} is above the maximum of ${limit} ${currency1.code} for this offer`,
    tooManyDecimals: (field) => `${field} has more than ${limit} decimal places, the precision of ${given.code}`,
    tooSmall: (field) => `${field} is too small to be exchanged`,
    tooLarge: (field) => `${field} gives an amount too large to be exchanged`,
  };
  return { ok: false, code: outcome.code, message: messages[outcome.code] };
}
