import { declareErrors } from '../../domain-error.js';
import type { AmountProblem } from '../pricing/price.js';

/** A reference of a new order that cannot be used, and why. */
export interface ReferenceProblem {
  field: string;
  code: 'notFound' | 'inactive' | 'currencyMismatch';
}

/** Why an order could not be created or moved. */
export const OrderError = declareErrors('orders', {
  notFound: () => ({}),
  quoteForOfferOnly: () => ({}),
  quoteWithAmount: (field: 'clientAmount' | 'exchangeAmount') => ({ field }),
  bothAmounts: () => ({}),
  amountMissing: () => ({}),
  finopAmountsMissing: (fields: string[]) => ({ fields }),
  tooManyDecimals: (field: string, decimals: number, currency: string) => ({ field, decimals, currency }),
  sameCurrency: () => ({}),
  cashboxNotFound: () => ({}),
  offerNotFound: () => ({}),
  amountRefused: (field: string, problem: AmountProblem, message: (field: string) => string) => ({
    field,
    problem,
    message,
  }),
  unusableReferences: (problems: ReferenceProblem[]) => ({ problems }),
  /** `reason`: the transition table's own sentence for the refused move. */
  moveRefused: (reason: string) => ({ reason }),
  changedConcurrently: (id: number) => ({ id }),
});
