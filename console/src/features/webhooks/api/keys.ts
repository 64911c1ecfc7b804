/**
 * The query keys of webhooks. A webhook's deliveries sit under its own key, so refreshing the webhook refreshes its
 * log and the delivery open in the drawer too.
 */
export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  list: (isActive: boolean | null) => [...webhookKeys.lists(), isActive] as const,
  detail: (id: string) => [...webhookKeys.all, id] as const,
  deliveries: (id: string, filters: { status: string | null; skip: number }) =>
    [...webhookKeys.detail(id), 'deliveries', filters] as const,
  delivery: (id: string, deliveryId: string | null) => [...webhookKeys.detail(id), 'delivery', deliveryId] as const,
};
