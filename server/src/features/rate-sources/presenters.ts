import type * as repo from './repository.js';

/** The pairs last read, sorted by pair, so a list reads the same from one read to the next. */
export function pairsView(quotes: Readonly<Record<string, string>> | null) {
  return Object.keys(quotes ?? {})
    .sort()
    .map((pair) => {
      const [base, quote] = pair.split('/');
      return { pair, base, quote, rate: quotes![pair] };
    });
}

export function rateSourceView(s: repo.RateSourceRow) {
  return {
    id: s.id,
    branchId: s.branch_id,
    name: s.name,
    kind: s.kind,
    url: s.url,
    intervalSeconds: s.interval_seconds,
    maxAgeSeconds: s.max_age_seconds,
    lastSuccessAt: s.last_success_at,
    lastError: s.last_error,
    lastErrorAt: s.last_error_at,
    isStale: s.is_stale,
    nextPollAt: s.next_poll_at,
    pairs: pairsView(s.last_quotes),
    offers: s.offers,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
  };
}

/** What the audit trail keeps of a source: its settings, not the pairs it read. */
export function auditedSource(s: ReturnType<typeof rateSourceView>) {
  return {
    id: s.id,
    branchId: s.branchId,
    name: s.name,
    kind: s.kind,
    url: s.url,
    intervalSeconds: s.intervalSeconds,
    maxAgeSeconds: s.maxAgeSeconds,
  };
}
