import { declareErrors } from '../../domain-error.js';

/** Why a payment method could not be created or changed. */
export const PaymentMethodError = declareErrors('paymentMethods', {
  notFound: () => ({}),
  exchangeNotFound: () => ({}),
  currencyNotFound: () => ({}),
  nameTaken: () => ({}),
});
