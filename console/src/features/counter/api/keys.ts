import type { EstimateRequest } from './counter';

/**
 * The query keys of the counter: an estimate per request (the same figures typed again are not asked again), the
 * clients found per search.
 */
export const counterKeys = {
  all: ['counter'] as const,
  estimate: (req: EstimateRequest) => [...counterKeys.all, 'estimate', req] as const,
  clients: (q: string) => [...counterKeys.all, 'clients', q] as const,
};
