import { declareErrors } from '../../domain-error.js';
import type { AmountProblem } from '../pricing/price.js';

/** Why an estimate or a firm quote could not be priced. */
export const CatalogError = declareErrors('catalog', {
  quoteSameCurrency: () => ({}),
  quoteExchangeNotFound: () => ({}),
  quoteOfferNotFound: () => ({}),
  quoteAmountRefused: (problem: AmountProblem, message: (field: string) => string) => ({ problem, message }),
});
