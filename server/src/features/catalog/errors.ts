import { declareErrors } from '../../domain-error.js';
import type { AmountProblem } from '../pricing/price.js';

/** Why an exchange, currency or offer could not be read or written, or an estimate could not be priced. */
export const CatalogError = declareErrors('catalog', {
  exchangeNotFound: () => ({}),
  exchangeFieldNotFound: () => ({}),
  currencyNotFound: () => ({}),
  currencyFieldNotFound: (field: 'currency1Id' | 'currency2Id') => ({ field }),
  offerNotFound: () => ({}),
  tickerTaken: () => ({}),
  unknownTimeZone: (timezone: string) => ({ timezone }),
  scheduleDayTwice: (index: number, dayOfWeek: number) => ({ index, dayOfWeek }),
  scheduleTimeMissing: (index: number, field: 'openTime' | 'closeTime') => ({ index, field }),
  scheduleClosesBeforeOpening: (index: number, openTime: string) => ({ index, openTime }),
  notADecimal: (field: string) => ({ field }),
  rateNotPositive: () => ({}),
  maxAmountNotPositive: () => ({}),
  minAboveMax: (minAmount: string, maxAmount: string) => ({ minAmount, maxAmount }),
  offerPairSameCurrency: () => ({}),
  offerPairTaken: () => ({}),
  quoteSameCurrency: () => ({}),
  quoteExchangeNotFound: () => ({}),
  quoteOfferNotFound: () => ({}),
  quoteAmountRefused: (problem: AmountProblem, message: (field: string) => string) => ({ problem, message }),
});
