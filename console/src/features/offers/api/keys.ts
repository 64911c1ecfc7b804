/** The query keys of offers: a list per exchange, and an offer's rate history per period. */
export const offerKeys = {
  all: ['offers'] as const,
  list: (exchangeId: number | null) => [...offerKeys.all, exchangeId] as const,
  rates: (id: number, days: number) => [...offerKeys.all, 'rates', id, days] as const,
};
