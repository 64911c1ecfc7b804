import { WebhookVerificationError } from './errors.js';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
/** A delivery's body: narrow it with `switch (event.event)`. */
export type WebhookEvent =
  | Schemas['OrderCreatedEvent']
  | Schemas['OrderStatusChangedEvent']
  | Schemas['OrderCancelledEvent']
  | Schemas['OfferUpdatedEvent'];
export type WebhookEventName = WebhookEvent['event'];

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (for tests). */
  now?: number;
}

const encoder = new TextEncoder();
type Bytes = Uint8Array<ArrayBuffer>;

/**
 * Checks that a delivery comes from the service and returns its event. `rawBody` must be the exact bytes received:
 * the signature covers them, and JSON re-serialized by a framework differs. `secret` is the webhook's `secretKey`
 * (or several, while rotating). With the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`, which the service always sends) those decide, and a timestamp outside the window is refused
 * (a replay); otherwise `X-Webhook-Signature: sha256=…` is checked. The comparison is Web Crypto's HMAC verify,
 * which runs in constant time. Throws a WebhookVerificationError.
 *
 * Delivery is at least once: a verified delivery may be a repeat (after a database outage longer than the
 * service's 30 s lease, for one). Deduplicate on the `webhook-id` header, or on the event's `id`, before acting.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  // A copy, so the bytes are an ArrayBuffer's (Web Crypto takes no SharedArrayBuffer) and nobody changes them meanwhile.
  const body: Bytes = typeof rawBody === 'string' ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const secrets = (Array.isArray(secret) ? secret : [secret]).filter((s) => s.length > 0);
  if (secrets.length === 0) throw new TypeError("verifyWebhook needs the webhook's secretKey");
  const get = header(headers);
  const id = get('webhook-id');
  const timestamp = get('webhook-timestamp');
  const standard = get('webhook-signature');
  const contract = get('x-webhook-signature');

  let valid: boolean;
  if (standard !== undefined && id !== undefined && timestamp !== undefined) {
    const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
    const tolerance = options.toleranceSeconds ?? 300;
    const now = Math.floor((options.now ?? Date.now()) / 1000);
    if (!Number.isFinite(seconds) || Math.abs(now - seconds) > tolerance) {
      throw new WebhookVerificationError(
        'timestampOutOfRange',
        `webhook-timestamp is not within ${tolerance} s of now`,
      );
    }
    const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
    // During a rotation the header may carry several signatures, space-separated: any one may match.
    const given = standard
      .split(' ')
      .filter((s) => s.startsWith('v1,'))
      .map((s) => fromBase64(s.slice(3)));
    valid = await anyMatches(secrets, signed, given);
  } else if (contract !== undefined) {
    const match = /^sha256=([0-9a-fA-F]{64})$/.exec(contract.trim());
    valid = match !== null && (await anyMatches(secrets, body, [fromHex(match[1])]));
  } else {
    throw new WebhookVerificationError('missingSignature', 'no webhook-signature or X-Webhook-Signature header');
  }
  if (!valid)
    throw new WebhookVerificationError('invalidSignature', 'the signature does not match the body and secret');

  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw new WebhookVerificationError('invalidPayload', 'the body is not JSON');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { event?: unknown }).event !== 'string') {
    throw new WebhookVerificationError('invalidPayload', 'the body is not a webhook event');
  }
  return event as WebhookEvent;
}

async function anyMatches(secrets: string[], data: Bytes, signatures: (Bytes | null)[]): Promise<boolean> {
  const subtle = globalThis.crypto.subtle;
  let found = false;
  for (const secret of secrets) {
    const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    // Every candidate is checked (no early exit), so the time taken does not tell which one matched.
    for (const signature of signatures) {
      if (signature !== null && (await subtle.verify('HMAC', key, signature, data))) found = true;
    }
  }
  return found;
}

function header(headers: WebhookHeaders): (name: string) => string | undefined {
  if (typeof (headers as Headers).get === 'function') return (name) => (headers as Headers).get(name) ?? undefined;
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (v !== undefined) lower.set(k.toLowerCase(), Array.isArray(v) ? v.join(' ') : v);
  }
  return (name) => lower.get(name);
}

function concat(a: Bytes, b: Bytes): Bytes {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function fromHex(hex: string): Bytes {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function fromBase64(text: string): Bytes | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
