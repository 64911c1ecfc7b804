import { declareErrors } from '../../domain-error.js';

/** Why a currency could not be read or written. */
export const CurrencyError = declareErrors('currencies', {
  currencyNotFound: () => ({}),
  tickerTaken: () => ({}),
});
