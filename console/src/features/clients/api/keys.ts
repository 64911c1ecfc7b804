/** The query keys of client accounts: a page of a search. */
export const clientKeys = {
  all: ['clients'] as const,
  list: (filters: { q: string; page: number }) => [...clientKeys.all, filters] as const,
};
