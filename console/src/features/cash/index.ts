export { cashKeys } from './api/keys';
export { CashForms } from './components/CashForms';
export { Ledger } from './components/Ledger';
export { LowPositions } from './components/LowPositions';
export { PositionsTable } from './components/PositionsTable';
export { usePositions } from './hooks/use-cash';
