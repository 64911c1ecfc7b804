export { exchangeKeys } from './api/keys';
export { ExchangeForm } from './components/ExchangeForm';
export { ExchangeTable } from './components/ExchangeTable';
export { useExchange, useExchanges } from './hooks/use-exchanges';
