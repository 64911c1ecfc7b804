/** The query keys of exchanges: the list and each exchange under `all`, so a save refreshes both. */
export const exchangeKeys = {
  all: ['exchanges'] as const,
  list: () => exchangeKeys.all,
  detail: (id: number) => [...exchangeKeys.all, id] as const,
};
