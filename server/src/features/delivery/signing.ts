import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: 32 random bytes as 64 hex characters. */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/** The contract's header: `sha256=<hex>` HMAC-SHA256 of the exact body bytes, keyed with the UTF-8 bytes of the secret. */
export function contractSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * Standard Webhooks (`webhook-signature: v1,<base64>` over `id.timestamp.body`), keyed with the same UTF-8
 * bytes, so a Standard Webhooks library verifies it when given `base64(secretKey)` as its secret.
 */
export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

export interface SignedHeaders {
  [name: string]: string;
}

/**
 * Every header of one attempt; the timestamp is per attempt (replay protection), the id per delivery (dedup).
 * During a rotation's overlap `webhook-signature` carries a signature with each secret, space-separated as
 * Standard Webhooks allows, so a receiver verifies with whichever it holds; `X-Webhook-Signature` has one value
 * in the contract's format, made with the new secret.
 */
export function deliveryHeaders(
  d: { id: string; event: string; body: string; secret: string; previousSecret?: string | null; attempt: number },
  now = Date.now(),
): SignedHeaders {
  const timestamp = Math.floor(now / 1000);
  const standard = standardSignature(d.secret, d.id, timestamp, d.body);
  return {
    'content-type': 'application/json',
    'user-agent': 'pxs-webhooks/1.0',
    'x-webhook-event': d.event,
    'x-webhook-delivery': d.id,
    'x-webhook-signature': contractSignature(d.secret, d.body),
    'x-webhook-attempt': String(d.attempt),
    'webhook-id': d.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': d.previousSecret
      ? `${standard} ${standardSignature(d.previousSecret, d.id, timestamp, d.body)}`
      : standard,
  };
}
