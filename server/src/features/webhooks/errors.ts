import { declareErrors } from '../../domain-error.js';

/** Why a webhook or one of its deliveries could not be registered, read or retried. */
export const WebhookError = declareErrors('webhooks', {
  notFound: () => ({}),
  deliveryNotFound: () => ({}),
  /** `reason`: the URL guard's own sentence; `code`: its name for the problem. */
  urlRefused: (code: string, reason: string) => ({ code, reason }),
  limitReached: (limit: number) => ({ limit }),
  retryOnInactiveWebhook: () => ({}),
});
