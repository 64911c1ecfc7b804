/** The query keys of currencies. */
export const currencyKeys = {
  all: ['currencies'] as const,
  list: () => currencyKeys.all,
};
