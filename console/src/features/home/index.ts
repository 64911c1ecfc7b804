export { homeKeys } from './api/keys';
export { NoExchanges } from './components/NoExchanges';
export { useDashboard } from './hooks/use-dashboard';
export { TodayTurnover } from './components/TodayTurnover';
