import type { ErrorBody } from './types';

/** A refusal of the API, with its status and the error envelope ({statusCode, message, error, errors?}). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
    readonly retryAfter: number | null = null,
  ) {
    super(describe(status, body));
  }

  /** The message of each field the API named, ready to show next to that field. */
  get fieldErrors(): Record<string, string> {
    const errors = Object.entries(this.body?.errors ?? {});
    const messages = [this.body?.message ?? []].flat();
    // One field and one sentence: the sentence is about that field, even when it does not start with its name.
    if (errors.length === 1 && messages.length === 1) return { [errors[0][0]]: messages[0] };
    return Object.fromEntries(errors.map(([field, code]) => [field, messageFor(field, code, messages)]));
  }

  /**
   * What the API said about these fields: their own sentences, or its whole message when it gave one none. A
   * sentence that starts with the API's name for its field starts with its `labels` entry instead, when it has one.
   */
  messageAbout(fields: string[], labels: Record<string, string | undefined> = {}): string {
    const messages = [this.body?.message ?? []].flat();
    const sentences = fields.map((f) => renamed(sentenceAbout(f, messages), f, labels[f]));
    return sentences.every(Boolean) ? [...new Set(sentences)].join('; ') : this.message;
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
  // A 404 names the missing resource and nothing else: "Order not found".
  if (body?.errors)
    return Object.entries(body.errors)
      .map(([field, code]) => sentenceCase(`${words(field.split('.').pop()!)} ${words(code)}`))
      .join('; ');
  return body?.error ?? `HTTP ${status}`;
}

/** The API's sentence about a field when it gave one (they start with the field's name), else its code in words. */
function messageFor(field: string, code: string, messages: string[]): string {
  return sentenceAbout(field, messages) ?? `${field.split('.').pop()!} ${words(code)}`;
}

function sentenceAbout(field: string, messages: string[]): string | undefined {
  const leaf = field.split('.').pop()!;
  return messages.find(
    (m) =>
      m.startsWith(`${field} `) || m.startsWith(`${leaf} `) || m.includes(`/${leaf} `) || m.startsWith(`body/${leaf}`),
  );
}

/** "allowedOrigins.1 must …" (or "schedule: day 3 …") as "<label> must …"; a sentence that starts otherwise stays as it is. */
function renamed(sentence: string | undefined, field: string, label: string | undefined): string | undefined {
  if (sentence === undefined || label === undefined) return sentence;
  const name = [field, field.split('.').pop()!].find(
    (n) => sentence.startsWith(n) && /^[ :]/.test(sentence.slice(n.length)),
  );
  return name === undefined ? sentence : label + sentence.slice(name.length);
}

const words = (camel: string) => camel.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
