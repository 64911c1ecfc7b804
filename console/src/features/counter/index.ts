export { counterKeys } from './api/keys';
export { CounterOrderForm } from './components/CounterOrderForm';
