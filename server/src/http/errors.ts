/**
 * The HTTP errors, by status name: thrown by routes, by auth/'s hooks and by http/ itself. Services and pure
 * code throw their feature's domain errors instead (domain-error.ts), which error-table.ts turns into these.
 * Either becomes a response in exactly one place (error-handler.ts).
 */
export const ERROR_STATUS = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  unprocessable: 422,
  rateLimited: 429,
  unavailable: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export interface ErrorBody {
  statusCode: number;
  message?: string | string[];
  error?: string;
  errors?: Record<string, string>;
  retryAfter?: number;
}

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string | string[] | undefined,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string | number>,
    readonly retryAfter?: number,
  ) {
    super(Array.isArray(message) ? message.join('; ') : (message ?? code));
    this.statusCode = ERROR_STATUS[code];
    this.messages = message;
  }
  readonly messages: string | string[] | undefined;

  toBody(): ErrorBody {
    const body: ErrorBody = { statusCode: this.statusCode };
    if (this.messages !== undefined) body.message = this.messages;
    body.error = STATUS_NAMES[this.statusCode];
    if (this.errors) body.errors = this.errors;
    if (this.retryAfter !== undefined) body.retryAfter = this.retryAfter;
    return body;
  }
}

export const badRequest = (message: string | string[], errors?: Record<string, string>) =>
  new AppError('badRequest', message, errors);
export const unauthorized = (message: string) => new AppError('unauthorized', message);
export const forbidden = (message = 'Forbidden') => new AppError('forbidden', message);
/** A missing or out-of-scope resource: `errors: {<resource>: "notFound"}` and no message, as the contract shows. */
export const notFound = (resource: string) => new AppError('notFound', undefined, { [resource]: 'notFound' });
