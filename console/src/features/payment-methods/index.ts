export { paymentMethodKeys } from './api/keys';
export { NewPaymentMethodForm } from './components/NewPaymentMethodForm';
export { PaymentMethodRow } from './components/PaymentMethodRow';
export { usePaymentMethods } from './hooks/use-payment-methods';
