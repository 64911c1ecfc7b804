/** The query keys of offers: a list per exchange. */
export const offerKeys = {
  all: ['offers'] as const,
  list: (exchangeId: number | null) => [...offerKeys.all, exchangeId] as const,
};
