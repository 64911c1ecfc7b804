import type { QuoteSink } from '../features/rate-sources/poller.js';

/**
 * Where the rate poller hands what it reads: the offers priced from a source. Until offers are priced from sources,
 * a read only updates the source itself (its pairs, lastSuccessAt, lastError).
 */
export const quoteSink: QuoteSink = {
  applied: async () => undefined,
  stale: async () => undefined,
};
