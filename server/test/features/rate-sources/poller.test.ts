import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRatePoller, type RatePoller } from '../../../src/features/rate-sources/poller.js';
import { eventually } from '../../helpers/eventually.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import { fixture, recordingSink, startSourceServer, type SourceServer } from './support.js';

let server: TestServer;
let tokens: Record<StaffName, string>;
let source: SourceServer;
let poller: RatePoller;
const recorded = recordingSink();
const created: number[] = [];

beforeAll(async () => {
  // Private URLs are allowed in tests (the sources are on 127.0.0.1); a short deadline for the timeout case.
  ({ server, tokens } = await startWorld({ env: { WEBHOOK_TIMEOUT_MS: '1000' } }));
  source = await startSourceServer();
  poller = startRatePoller(server.ctx, recorded.sink, { tickMs: 100 });
});
afterEach(async () => {
  // A source left behind would be read at every later test's ticks.
  for (const id of created.splice(0))
    await call(server, 'DELETE', `/admin/rate-sources/${id}`, { token: tokens.admin1 });
});
afterAll(async () => {
  await poller?.stop();
  await source?.close();
  await server?.close();
});

async function register(kind: string, path: string, extra: Record<string, unknown> = {}) {
  const res = await call(server, 'POST', '/admin/rate-sources', {
    token: tokens.admin1,
    body: { name: `${kind} ${path}`, kind, url: source.url(path), intervalSeconds: 1, ...extra },
  });
  expect(res.status, res.text).toBe(201);
  created.push(res.body.id);
  return res.body.id as number;
}

/** A port nothing listens on: one just released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

const read = async (id: number) =>
  (await call(server, 'GET', `/admin/rate-sources/${id}`, { token: tokens.admin1 })).body;

/** The source once its last read succeeded (`ok`) or failed. */
const settled = (id: number, ok: boolean) =>
  eventually(async () => {
    const s = await read(id);
    return (ok ? s.lastSuccessAt !== null && s.lastError === null : s.lastError !== null) && s;
  });

describe('a successful read', () => {
  it('records the pairs, lastSuccessAt and no error, and hands the pairs to the sink', async () => {
    source.serve('/cbr', {
      status: 200,
      body: fixture('XML_daily.asp.xml'),
      headers: { 'content-type': 'application/xml' },
    });
    const id = await register('cbr', '/cbr');
    const s = await settled(id, true);
    expect(s.pairs).toHaveLength(29);
    expect(s.pairs).toContainEqual({ pair: 'USD/RUB', base: 'USD', quote: 'RUB', rate: '89.5072' });
    expect(s.pairs).toContainEqual({ pair: 'AMD/RUB', base: 'AMD', quote: 'RUB', rate: '0.234567' });
    expect(s.isStale).toBe(false);
    const call1 = recorded.applied.find((a) => a.sourceId === id)!;
    expect(call1.quotes['EUR/RUB']).toBe('96.0415');
    expect(call1.readAt).toBeInstanceOf(Date);
    const list = await call(server, 'GET', '/admin/rate-sources', { token: tokens.admin1 });
    expect(list.body.data.find((x: { id: number }) => x.id === id).pairs).toHaveLength(29);
  });

  it.each([
    ['ecb', 'eurofxref-daily.xml', 'EUR/USD', '1.0845'],
    ['binance', 'ticker-price.json', 'BTC/USDT', '64000.01'],
    ['json', 'rates.json', 'USDT/RUB', '91.550000000000000001'],
  ])('reads a %s document', async (kind, file, pair, rate) => {
    source.serve(`/${kind}`, { status: 200, body: fixture(file) });
    const id = await register(kind, `/${kind}`);
    const s = await settled(id, true);
    expect(s.pairs).toContainEqual(expect.objectContaining({ pair, rate }));
  });
});

describe('a failed read', () => {
  it('records lastError and lastErrorAt, keeps the pairs of the last success, and clears the error once read again', async () => {
    let status = 200;
    source.serve('/flaky', () => (status === 200 ? { status, body: fixture('rates.json') } : { status, body: 'down' }));
    const id = await register('json', '/flaky');
    await settled(id, true);
    status = 503;
    const failed = await settled(id, false);
    expect(failed.lastError).toBe('HTTP 503');
    expect(failed.lastErrorAt).not.toBeNull();
    expect(failed.pairs).toContainEqual(expect.objectContaining({ pair: 'USD/RUB', rate: '91.55' }));
    status = 200;
    const back = await settled(id, true);
    expect(back.lastErrorAt).toBe(failed.lastErrorAt);
    expect(Date.parse(back.lastSuccessAt)).toBeGreaterThan(Date.parse(failed.lastErrorAt) - 1000);
  });

  it('does not follow a redirect', async () => {
    source.serve('/moved', { status: 302, headers: { location: source.url('/target') } });
    source.serve('/target', { status: 200, body: fixture('rates.json') });
    const id = await register('json', '/moved');
    expect((await settled(id, false)).lastError).toBe('HTTP 302: redirect not followed');
    expect(source.hits('/target')).toBe(0);
  });

  it('stops reading past 2 MB, announced or not', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
    source.serve('/big', { status: 200, body: big });
    source.serve('/big-chunked', { status: 200, body: big, headers: { 'transfer-encoding': 'chunked' } });
    const announced = await register('json', '/big');
    const chunked = await register('json', '/big-chunked');
    expect((await settled(announced, false)).lastError).toBe('the document is larger than 2097152 bytes');
    expect((await settled(chunked, false)).lastError).toBe('the document is larger than 2097152 bytes');
  });

  it('gives up at the deadline', async () => {
    source.serve('/slow', 'hang');
    const id = await register('json', '/slow');
    expect((await settled(id, false)).lastError).toBe('timeout after 1000 ms');
  });

  it('records a document its kind cannot read, and a refused connection, without the URL', async () => {
    source.serve('/garbled', { status: 200, body: '<ValCurs><Valute>' });
    const garbled = await register('cbr', '/garbled?apiKey=s3cret');
    expect((await settled(garbled, false)).lastError).toMatch(/^not well-formed XML \(line 1\)/);
    const closed = await register('json', '/x', { url: `http://127.0.0.1:${await closedPort()}/rates?apiKey=s3cret` });
    const refused = await settled(closed, false);
    expect(refused.lastError).toMatch(/^ECONNREFUSED: /);
    expect(refused.lastError).not.toContain('s3cret');
  });

  it('counts errors per source in /metrics, and the age of each source read', async () => {
    source.serve('/gone', { status: 410 });
    source.serve('/fine', { status: 200, body: fixture('rates.json') });
    const gone = await register('json', '/gone');
    const fine = await register('json', '/fine');
    await settled(gone, false);
    await settled(fine, true);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toMatch(new RegExp(`pxs_rate_source_errors_total\\{source_id="${gone}"\\} [1-9]`));
    expect(text).toMatch(new RegExp(`pxs_rate_source_last_success_seconds\\{source_id="${fine}"\\} \\d`));
    expect(text).not.toMatch(new RegExp(`pxs_rate_source_last_success_seconds\\{source_id="${gone}"\\}`));
  });
});

describe('staleness', () => {
  it('tells the sink, at each tick, of a source without a success for maxAgeSeconds', async () => {
    source.serve('/never', { status: 500 });
    const id = await register('json', '/never', { maxAgeSeconds: 1 });
    expect((await read(id)).isStale).toBe(false);
    await eventually(async () => recorded.stale.filter((s) => s.sourceId === id).length >= 3);
    expect((await read(id)).isStale).toBe(true);
    source.serve('/never', { status: 200, body: fixture('rates.json') });
    await settled(id, true);
    expect((await read(id)).isStale).toBe(false);
  });
});
