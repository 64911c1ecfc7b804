/** The query keys of payment methods. */
export const paymentMethodKeys = {
  all: ['payment-methods'] as const,
  list: () => paymentMethodKeys.all,
};
