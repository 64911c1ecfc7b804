export { reportKeys } from './api/keys';
export type { GroupBy, TurnoverQuery } from './api/reports';
export { browserZone, periodDays, todayIn, zones, type Period } from './components/periods';
export { ReportSection } from './components/ReportSection';
export { TurnoverChart } from './components/TurnoverChart';
export { TurnoverTable } from './components/TurnoverTable';
export { useTurnover } from './hooks/use-reports';
