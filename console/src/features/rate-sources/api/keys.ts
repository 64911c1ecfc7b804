/** The query keys of rate sources: one list of the caller's branch (every branch for a superadmin). */
export const rateSourceKeys = {
  all: ['rate-sources'] as const,
  list: () => [...rateSourceKeys.all, 'list'] as const,
};
