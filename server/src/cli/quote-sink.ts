import { applySourceQuotes, suspendStaleOffers } from '../features/offers/service.js';
import type { QuoteSink } from '../features/rate-sources/poller.js';

/** Where the rate poller hands what it reads: the offers priced from the source (docs/rates.md). */
export const quoteSink: QuoteSink = {
  applied: (db, sourceId, quotes, readAt) => applySourceQuotes(db, sourceId, quotes, readAt),
  stale: (db, sourceId, now) => suspendStaleOffers(db, sourceId, now),
};
