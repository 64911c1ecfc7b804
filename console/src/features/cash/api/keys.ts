/**
 * The query keys of cash: an exchange's positions and its ledgers under `exchange(id)`, so a movement refreshes
 * the figures and every page of the ledger at once (a transfer refreshes both exchanges).
 */
export const cashKeys = {
  all: ['cash'] as const,
  exchange: (id: number) => [...cashKeys.all, id] as const,
  positions: (id: number) => [...cashKeys.exchange(id), 'positions'] as const,
  movements: (id: number, currencyId: number, page: number) =>
    [...cashKeys.exchange(id), 'movements', currencyId, page] as const,
};
