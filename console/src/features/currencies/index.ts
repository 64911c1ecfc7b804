export { currencyKeys } from './api/keys';
export { CurrencyForm } from './components/CurrencyForm';
export { useCurrencies } from './hooks/use-currencies';
