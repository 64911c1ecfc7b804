import { declareErrors } from '../../domain-error.js';

/** Why a cash movement, a transfer or a hold was refused. */
export const CashError = declareErrors('cash', {
  exchangeNotFound: () => ({}),
  currencyNotFound: () => ({}),
  /** A currency the exchange does not track (it has had no movement). */
  positionNotFound: () => ({}),
  notADecimal: (field: string) => ({ field }),
  notPositive: (field: string) => ({ field }),
  tooManyDecimals: (field: string, decimals: number, currency: string) => ({ field, decimals, currency }),
  /** A withdrawal, count or transfer that would leave less than the open orders hold. */
  belowHeld: (held: string, available: string, currency: string) => ({ held, available, currency }),
  /** An order, estimate or quote paying out more than the exchange has available of the currency. */
  insufficientReserve: (field: 'exchangeAmount' | 'amount', available: string, currency: string) => ({
    field,
    available,
    currency,
  }),
  transferExchangeNotFound: (field: 'fromExchangeId' | 'toExchangeId') => ({ field }),
  transferSameExchange: () => ({}),
  transferAcrossBranches: () => ({}),
});
