import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRatePoller } from '../../../src/features/rate-sources/poller.js';
import { readDocument } from '../../../src/features/rate-sources/reader.js';
import { eventually } from '../../helpers/eventually.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { fixture, recordingSink, startSourceServer } from './support.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } })));
afterAll(() => server?.close());

const createSource = (url: string) =>
  call(server, 'POST', '/admin/rate-sources', {
    token: tokens.admin1,
    body: { name: `at ${url}`, kind: 'json', url },
  });

describe('a source URL follows the webhook URL rules', () => {
  it.each([
    'http://127.0.0.1/rates',
    'http://10.0.0.1/rates',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/rates',
    'http://localhost:8080/rates',
    'http://[::ffff:127.0.0.1]/rates',
    'https://[fd00::1]/',
    'http://user:pw@93.184.215.14/',
    'http://93.184.215.14:25/',
    'gopher://93.184.215.14/',
  ])('refuses %s with the very answer a webhook URL gets', async (url) => {
    const asSource = await createSource(url);
    const asWebhook = await call(server, 'POST', '/partner/webhooks', {
      key: world.keys.branch,
      body: { url, events: ['order.created'] },
    });
    expect(asSource.status).toBe(400);
    expect(asSource.body).toEqual(asWebhook.body);
  });

  it('says a private address as the webhooks say it', async () => {
    const res = await createSource('http://192.168.0.10/rates');
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      errors: { url: 'privateAddress' },
      message: ['url must not resolve to a loopback, private, link-local or otherwise internal address'],
    });
  });

  it('refuses an internal URL on change too, and accepts a public one', async () => {
    const created = await createSource('https://93.184.215.14/rates.json');
    expect(created.status, created.text).toBe(201);
    const res = await call(server, 'PATCH', `/admin/rate-sources/${created.body.id}`, {
      token: tokens.admin1,
      body: { url: 'http://10.0.0.1/x' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ url: 'privateAddress' });
    await call(server, 'DELETE', `/admin/rate-sources/${created.body.id}`, { token: tokens.admin1 });
  });

  it('refuses at read time a name that now resolves to this machine, without connecting', async () => {
    const source = await startSourceServer();
    const recorded = recordingSink();
    try {
      source.serve('/rates', { status: 200, body: fixture('rates.json') });
      // Registered while the name was public, say; it now resolves to loopback.
      const row = await server.db
        .insertInto('rate_sources')
        .values({
          branch_id: world.branches.b1,
          name: 'turned internal',
          kind: 'json',
          url: source.url('/rates').replace('127.0.0.1', 'localhost'),
          updated_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const poller = startRatePoller(server.ctx, recorded.sink, { tickMs: 50 });
      try {
        const error = await eventually(async () => {
          const s = await server.db
            .selectFrom('rate_sources')
            .select('last_error')
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow();
          return s.last_error ?? undefined;
        });
        expect(error).toBe(
          'refused: url must not resolve to a loopback, private, link-local or otherwise internal address',
        );
      } finally {
        await poller.stop();
      }
      expect(source.hits('/rates')).toBe(0);
      expect(recorded.applied).toEqual([]);
      // The same server, read with private addresses allowed, answers: the refusal was the rule, not the network.
      const body = await readDocument(source.url('/rates'), {
        timeoutMs: 2000,
        maxBytes: 1024,
        allowPrivateUrls: true,
      });
      expect(body.toString()).toContain('USD/RUB');
    } finally {
      await source.close();
    }
  });
});
