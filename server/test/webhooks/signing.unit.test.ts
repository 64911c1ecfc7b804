import { createHmac } from 'node:crypto';
import { sign as octokitSign } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { contractSignature, deliveryHeaders, newSecret, standardSignature } from '../../src/features/delivery/signing.js';

const SECRET = '3f'.repeat(32);

describe('signatures', () => {
  it.each([
    ['{}'],
    ['{"event":"order.created","timestamp":"2024-01-01T00:00:00.000Z","data":{"id":1}}'],
    ['{"note":"ünïcødé ✓ \\"q\\" \\u0000"}'],
  ])('the contract header matches @octokit/webhooks-methods and plain HMAC for %j', async (body) => {
    expect(contractSignature(SECRET, body)).toBe(await octokitSign(SECRET, body));
    expect(contractSignature(SECRET, body)).toBe(`sha256=${createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex')}`);
  });

  it('the Standard Webhooks header is what the standardwebhooks library makes from base64(secretKey)', () => {
    const lib = new StandardWebhook(Buffer.from(SECRET, 'utf8').toString('base64'));
    const at = new Date('2024-05-01T00:00:00Z');
    const body = '{"event":"offer.updated","data":{"rate":"1.5"}}';
    expect(standardSignature(SECRET, 'msg_1', at.getTime() / 1000, body)).toBe(lib.sign('msg_1', at, body));
  });

  it('every attempt carries both schemes, the same id, and a timestamp of its own', () => {
    const d = { id: '6f1c0c3e-2d7a-4c7e-9a43-0d1f2a3b4c5d', event: 'order.created', body: '{"a":1}', secret: SECRET, attempt: 3 };
    const h = deliveryHeaders(d, Date.UTC(2024, 0, 1, 0, 0, 7, 900));
    expect(h).toMatchObject({
      'content-type': 'application/json', 'x-webhook-event': 'order.created', 'x-webhook-delivery': d.id, 'webhook-id': d.id,
      'x-webhook-attempt': '3', 'webhook-timestamp': String(Date.UTC(2024, 0, 1, 0, 0, 7) / 1000), 'x-webhook-signature': contractSignature(SECRET, d.body),
    });
    expect(h['webhook-signature']).toBe(standardSignature(SECRET, d.id, Date.UTC(2024, 0, 1, 0, 0, 7) / 1000, d.body));
    expect(deliveryHeaders(d, Date.UTC(2024, 0, 1, 0, 1))['webhook-signature']).not.toBe(h['webhook-signature']);
  });

  it('secrets are 64 hex characters, never repeated', () => {
    const secrets = new Set(Array.from({ length: 100 }, newSecret));
    expect(secrets.size).toBe(100);
    for (const s of secrets) expect(s).toMatch(/^[0-9a-f]{64}$/);
  });
});
