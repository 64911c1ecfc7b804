import { declareErrors } from '../../domain-error.js';

/** Why an offer could not be read or written. */
export const OfferError = declareErrors('offers', {
  exchangeFieldNotFound: () => ({}),
  currencyFieldNotFound: (field: 'currency1Id' | 'currency2Id') => ({ field }),
  offerNotFound: () => ({}),
  notADecimal: (field: string) => ({ field }),
  rateNotPositive: () => ({}),
  maxAmountNotPositive: () => ({}),
  minAboveMax: (minAmount: string, maxAmount: string) => ({ minAmount, maxAmount }),
  offerPairSameCurrency: () => ({}),
  offerPairTaken: () => ({}),
  rateRequired: () => ({}),
  rateSetBySource: () => ({}),
  rateSourceNotFound: () => ({}),
  pricingSameCurrency: () => ({}),
  marginOutOfRange: () => ({}),
  pricingNotPositive: (field: string) => ({ field }),
  floorAboveCeiling: (floor: string, ceiling: string) => ({ floor, ceiling }),
  pairNotQuoted: (base: string, quote: string) => ({ base, quote }),
  noMarketRate: (reason: 'notPositive' | 'tooLarge') => ({ reason }),
  notSuspended: () => ({}),
  badRange: () => ({}),
});
