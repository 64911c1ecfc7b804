/** The query keys of the names every page shows (branches, exchanges, currencies, payment methods). */
export const lookupKeys = {
  all: ['lookups'] as const,
};
