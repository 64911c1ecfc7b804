import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isInternalAddress, parseWebhookUrl, UrlProblem } from '../../../src/features/delivery/url-guard.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { deliveries, emit, eventually, sleep, startReceiver, worker } from './support.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;

beforeAll(async () => ({ server, world } = await startWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } })));
// Registration never connects anywhere; still, no webhook outlives its test, so the one test that runs a worker
// can only ever reach the local receiver.
beforeEach(() => server.db.deleteFrom('webhooks').execute());
afterAll(() => server?.close());

const create = (url: unknown, events: unknown = ['order.created']) =>
  call(server, 'POST', '/partner/webhooks', { key: world.keys.branch, body: { url, events } });

describe('address classification', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.0.0.1', true],
    ['172.16.5.4', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['255.255.255.255', true],
    ['192.0.2.1', true],
    ['::1', true],
    ['::', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:169.254.169.254', true],
    ['::127.0.0.1', true],
    ['64:ff9b::a00:1', true],
    ['2002:a00:1::1', true],
    ['ff02::1', true],
    ['not-an-ip', true],
    ['8.8.8.8', false],
    ['93.184.215.14', false],
    ['172.32.0.1', false],
    ['::ffff:8.8.8.8', false],
    ['2606:4700:4700::1111', false],
  ])('%s is internal: %s', (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it.each([
    ['http://user:pw@example.com/', 'credentialsNotAllowed'],
    ['ftp://example.com/', 'invalidFormat'],
    ['javascript:alert(1)', 'invalidFormat'],
    ['not a url', 'invalidFormat'],
    ['https://', 'invalidFormat'],
    [`https://example.com/${'a'.repeat(2048)}`, 'invalidFormat'],
    ['http://mail.example.com:25/', 'blockedPort'],
    ['https://example.com:587/x', 'blockedPort'],
    ['http://irc.example.com:6667/', 'blockedPort'],
    ['https://example.com:0/', 'blockedPort'],
    ['http://[2606:4700::1]:22/', 'blockedPort'],
  ])('%s is refused as %s', (url, code) => {
    expect(() => parseWebhookUrl(url)).toThrow(UrlProblem);
    try {
      parseWebhookUrl(url);
    } catch (err) {
      expect((err as UrlProblem).code).toBe(code);
    }
  });
});

describe('ports', () => {
  it.each([
    'https://example.com:443/',
    'http://example.com:80/',
    'https://example.com:8443/h',
    'http://example.com:8080/',
    'https://example.com:65535/',
  ])('%s is accepted', (url) => {
    expect(() => parseWebhookUrl(url)).not.toThrow();
  });

  it('refuses a bad port at registration, saying which and why', async () => {
    const res = await create('https://93.184.215.14:25/hooks');
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      errors: { url: 'blockedPort' },
      message: ['url must not use port 25: it belongs to another protocol (mail, IRC, …), as browsers also refuse'],
    });
    expect((await create('https://93.184.215.14:8443/hooks')).status).toBe(201);
  });

  it('refuses a bad port at delivery time, for a webhook stored before the rule', async () => {
    expect(await deliveryError('http://127.0.0.1:587/hook')).toBe(
      'refused: url must not use port 587: it belongs to another protocol (mail, IRC, …), as browsers also refuse',
    );
  });
});

/** The error of the one attempt a worker makes for a webhook stored with this URL (as if registered under other rules). */
async function deliveryError(url: string): Promise<string | null> {
  const row = await server.db
    .insertInto('webhooks')
    .values({
      branch_id: world.branches.b1,
      url,
      events: ['order.created'],
      secret_key: 'f'.repeat(64),
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const running = await worker(server, { maxRetries: 0 });
  try {
    await emit(server, { branchId: world.branches.b1, exchangeId: world.exchanges.A });
    const [d] = await eventually(async () => {
      const rows = await deliveries(server, row.id);
      return rows[0]?.status === 'failed' && rows;
    });
    return d.last_error;
  } finally {
    await running.stop();
    await server.db.deleteFrom('webhooks').execute();
  }
}

describe('registration when private URLs are not allowed', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://localhost:8080/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://2130706433/hook',
    'http://0.0.0.0/',
    'http://192.168.0.10/',
    'https://[fd00::1]/',
  ])('refuses %s with 400', async (url) => {
    const res = await create(url);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      errors: { url: 'privateAddress' },
      message: ['url must not resolve to a loopback, private, link-local or otherwise internal address'],
    });
  });

  it('accepts a public address, and a name that does not resolve yet', async () => {
    const res = await create('https://93.184.215.14/hooks/pxs');
    expect(res.status).toBe(201);
    const later = await create('https://hooks.partner.invalid/pxs');
    expect(later.status).toBe(201);
  });

  it('refuses an internal URL on update too', async () => {
    const created = await create('https://93.184.215.14/hooks/a');
    const res = await call(server, 'PATCH', `/partner/webhooks/${created.body.id}`, {
      key: world.keys.branch,
      body: { url: 'http://10.0.0.1/x' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ url: 'privateAddress' });
  });

  it('refuses a URL that resolves to loopback at delivery time, without connecting', async () => {
    expect(await server.db.selectFrom('webhooks').select('id').execute()).toEqual([]);
    const receiver = await startReceiver();
    try {
      // Registered while the name was public, say; it now resolves to this machine.
      expect(await deliveryError(receiver.url.replace('127.0.0.1', 'localhost'))).toBe(
        'refused: url must not resolve to a loopback, private, link-local or otherwise internal address',
      );
      await sleep(100);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('registration body validation', () => {
  it('refuses empty events', async () => {
    const res = await create('https://93.184.215.14/h', []);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: ['events should not be empty'],
      errors: { events: 'empty' },
    });
  });

  it('refuses an unknown event', async () => {
    const res = await create('https://93.184.215.14/h', ['order.created', 'order.deleted']);
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual([
      'events.1 must be one of: order.created, order.status_changed, order.cancelled, offer.updated',
    ]);
    expect(res.body.errors).toEqual({ 'events.1': 'invalidValue' });
  });

  it("refuses a bad URL with the contract's message", async () => {
    for (const url of ['not a url', 'ftp://example.com/x', 'example.com/hook']) {
      const res = await create(url);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: ['url must be a URL address'],
        errors: { url: 'invalidFormat' },
      });
    }
    const creds = await create('https://user:secret@example.com/hook');
    expect(creds.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: ['url must not contain credentials'],
      errors: { url: 'credentialsNotAllowed' },
    });
  });

  it('refuses missing fields, duplicates and unknown fields', async () => {
    const missing = await call(server, 'POST', '/partner/webhooks', {
      key: world.keys.branch,
      body: { events: ['order.created'] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ url: 'required' });
    const dup = await create('https://93.184.215.14/h', ['order.created', 'order.created']);
    expect(dup.body.errors).toEqual({ events: 'duplicate' });
    const extra = await call(server, 'POST', '/partner/webhooks', {
      key: world.keys.branch,
      body: { url: 'https://93.184.215.14/h', events: ['order.created'], secretKey: 'x' },
    });
    expect(extra.body.errors).toEqual({ secretKey: 'notAllowed' });
  });
});
