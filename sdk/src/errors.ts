/** The API's error body (every 4xx and 5xx of the partner API has this shape). */
export interface ErrorBody {
  statusCode: number;
  message?: string | string[];
  error?: string;
  errors?: Record<string, string>;
  retryAfter?: number;
}

/**
 * An error answer of the API. `message` is always one string (validation lists are joined with "; ", the list is in
 * `messages`); `errors` maps a field or resource name to a code such as `required` or `notFound`.
 */
export class PxsError extends Error {
  override readonly name = 'PxsError';
  readonly statusCode: number;
  readonly messages: string[];
  readonly errors: Record<string, string>;
  /** Seconds until the rate limit resets, on a 429. */
  readonly retryAfter?: number;
  /** The X-Request-Id of the answer: quote it when asking for support. */
  readonly requestId?: string;
  readonly body: unknown;

  constructor(statusCode: number, body: unknown, requestId?: string) {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Partial<ErrorBody>;
    const messages = Array.isArray(b.message)
      ? b.message.map(String)
      : typeof b.message === 'string'
        ? [b.message]
        : [];
    const errors = typeof b.errors === 'object' && b.errors !== null ? { ...b.errors } : {};
    const text =
      messages.length > 0
        ? messages.join('; ')
        : Object.keys(errors).length > 0
          ? Object.entries(errors)
              .map(([k, v]) => `${k}: ${v}`)
              .join(', ')
          : typeof b.error === 'string'
            ? b.error
            : `HTTP ${statusCode}`;
    super(text);
    this.statusCode = statusCode;
    this.messages = messages;
    this.errors = errors;
    if (typeof b.retryAfter === 'number') this.retryAfter = b.retryAfter;
    if (requestId) this.requestId = requestId;
    this.body = body;
  }
}

/** Why `verifyWebhook` refused a delivery. */
export type WebhookErrorReason = 'missingSignature' | 'invalidSignature' | 'timestampOutOfRange' | 'invalidPayload';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookErrorReason,
    message: string,
  ) {
    super(message);
  }
}
