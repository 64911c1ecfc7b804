import { declareErrors } from '../../domain-error.js';

/** Why an order could not use the quote it names. */
export const QuoteError = declareErrors('quotes', {
  notFound: (id: string) => ({ id }),
  foreign: (id: string) => ({ id }),
  used: (id: string) => ({ id }),
  expired: (id: string) => ({ id }),
  mismatch: (id: string, quoted: QuotedFor, ordered: QuotedFor) => ({ id, quoted, ordered }),
  offerInactive: (id: string) => ({ id }),
  offerReplaced: (id: string, offerId: number) => ({ id, offerId }),
  aboveOfferMaximum: (maxAmount: string, quoted: string) => ({ maxAmount, quoted }),
});

/** The exchange and currency pair a quote was taken for, or an order names. */
export interface QuotedFor {
  exchangeId: number;
  sourceCurrencyId: number;
  destCurrencyId: number;
}
