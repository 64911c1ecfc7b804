import type { ErrorBody } from './types';

/** A refusal of the API, with its status and the error envelope ({statusCode, message, error, errors?}). */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ErrorBody | undefined, readonly retryAfter: number | null = null) {
    super(describe(status, body));
  }

  /** The message of each field the API named, ready to show next to that field. */
  get fieldErrors(): Record<string, string> {
    const errors = this.body?.errors ?? {};
    const messages = [this.body?.message ?? []].flat();
    return Object.fromEntries(Object.entries(errors).map(([field, code]) => [field, messageFor(field, code, messages)]));
  }
}

/** The connection dropped or the server could not be reached: nothing is known about the request's effect. */
export class ConnectionError extends Error {
  constructor() {
    super('The service could not be reached');
  }
}

function describe(status: number, body: ErrorBody | undefined): string {
  const message = [body?.message ?? []].flat().join('; ');
  if (message) return message;
  if (body?.errors) return Object.entries(body.errors).map(([field, code]) => `${field}: ${code}`).join('; ');
  return body?.error ?? `HTTP ${status}`;
}

/** The API's sentence about a field when it gave one (they start with the field's name), else its code in words. */
function messageFor(field: string, code: string, messages: string[]): string {
  const leaf = field.split('.').pop()!;
  const sentence = messages.find((m) => m.startsWith(`${field} `) || m.startsWith(`${leaf} `) || m.includes(`/${leaf} `) || m.startsWith(`body/${leaf}`));
  if (sentence) return sentence;
  return `${leaf} ${code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`;
}
