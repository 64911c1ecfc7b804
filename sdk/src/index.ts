export { createClient, type ClientOptions, type PxsClient } from './client.js';
export type { EtagCacheOptions } from './etag.js';
export { PxsError, WebhookVerificationError, type ErrorBody, type WebhookErrorReason } from './errors.js';
export { paginate, type Page } from './pagination.js';
export { retryAfterMs, type RetryOptions } from './retry.js';
export {
  verifyWebhook,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookEventName,
  type WebhookHeaders,
} from './webhooks.js';
export type * from './types.js';
export type { components, operations, paths, webhooks } from './generated/openapi.js';
