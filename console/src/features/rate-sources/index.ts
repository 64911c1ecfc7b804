export { rateSourceKeys } from './api/keys';
export type { RateSource } from './api/rate-sources';
export { RateSourceCard } from './components/RateSourceCard';
export { RateSourceForm } from './components/RateSourceForm';
export { useRateSources } from './hooks/use-rate-sources';
