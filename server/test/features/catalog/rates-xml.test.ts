import { randomBytes } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../src/features/api-keys/issue.js';
import { generateApiKey, KEY_PREFIXES } from '../../../src/auth/key-format.js';
import type { ApiKeyType } from '../../../src/db/schema.js';
import { rateItem } from '../../../src/features/catalog/rates-xml.js';
import { eventually } from '../../helpers/eventually.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

// BestChange's export format 1.1, then 1.0's limits (which monitors that read 1.0 still read).
const FIELDS = [
  'from',
  'to',
  'in',
  'out',
  'amount',
  'frommin',
  'frommax',
  'tomin',
  'tomax',
  'minamount',
  'maxamount',
] as const;
type Item = Record<(typeof FIELDS)[number], string>;

/** The items of the export, each field as written (a fixed layout, so a regular expression reads it). */
function items(xml: string): Item[] {
  return [...xml.matchAll(/<item>(.*?)<\/item>/g)].map(([, inner]) => {
    const fields = [...inner.matchAll(/<(\w+)>([^<]*)<\/\1>/g)];
    expect(fields.map(([, name]) => name)).toEqual(FIELDS);
    return Object.fromEntries(fields.map(([, name, text]) => [name, text])) as Item;
  });
}

/** The JSON rates with their numbers as the text the server wrote, not as parsed floats. */
function jsonRates(text: string) {
  const pattern =
    /"sourceCurrency":\{"id":\d+,"ticker":"([^"]+)"\},"destCurrency":\{"id":\d+,"ticker":"([^"]+)"\},"rate":([^,]+),"minAmount":([^,]+),"maxAmount":([^,]+),/g;
  return [...text.matchAll(pattern)].map(([, from, to, rate, min, max]) => ({ from, to, rate, min, max }));
}

const xml = (key: string, query?: Record<string, number>) =>
  call(server, 'GET', '/partner/public/rates.xml', { key, query });
/** As a rate monitor asks: the key in the URL, no header. */
const byUrl = (query: Record<string, string | number>, headers?: Record<string, string>) =>
  call(server, 'GET', '/partner/public/rates.xml', { query, headers });

describe('GET /partner/public/rates.xml', () => {
  it("lists the JSON rates' offers figure by figure, exactly, as application/xml", async () => {
    const res = await xml(world.keys.public);
    expect(res.status, res.text).toBe(200);
    // Exactly the type BestChange's format 1.1 names; the XML declaration says UTF-8.
    expect(res.headers.get('content-type')).toBe('application/xml');
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rates>\n(<item>.*<\/item>\n)+<\/rates>\n$/);
    const json = await call(server, 'GET', '/partner/public/rates', { key: world.keys.public });
    const expected = jsonRates(json.text);
    const got = items(res.text);
    expect(expected.length).toBe(json.body.length);
    expect(got.length).toBe(expected.length);
    got.forEach((item, i) => {
      const j = expected[i];
      expect([item.from, item.to, item.in]).toEqual([j.from, j.to, '1']);
      for (const text of [item.out, item.amount, item.minamount, item.maxamount])
        expect(text).not.toMatch(/\d[eE][+-]?\d/);
      expect(new Decimal(item.out).eq(j.rate), `${item.out} = ${j.rate}`).toBe(true);
      expect(item.frommin).toBe(new Decimal(j.min).toFixed());
      expect(item.frommax).toBe(new Decimal(j.max).toFixed());
      expect(item.minamount).toBe(`${new Decimal(j.min).toFixed()} ${j.from}`);
      expect(item.maxamount).toBe(`${new Decimal(j.max).toFixed()} ${j.from}`);
      // Today the reserve is what the largest order pays out (until the office's cash positions are tracked).
      expect(item.amount).toBe(item.tomax);
    });
  });

  it('writes the limits on both sides and the payouts in the destination currency, rounded down to its decimals', async () => {
    const byPair = Object.fromEntries(
      items((await xml(world.keys.branch, { exchangeId: world.exchanges.A })).text).map((i) => [
        `${i.from}>${i.to}`,
        i,
      ]),
    );
    expect(byPair['USD>EUR']).toEqual({
      from: 'USD',
      to: 'EUR',
      in: '1',
      out: '0.9215',
      amount: '9215',
      frommin: '10',
      frommax: '10000',
      tomin: '9.21',
      tomax: '9215',
      minamount: '10 USD',
      maxamount: '10000 USD',
    });
    expect(byPair['BTC>USD']).toMatchObject({
      out: '64250.17',
      amount: '321250.85',
      frommin: '0.0001',
      frommax: '5',
      tomin: '6.42',
      tomax: '321250.85',
    });
    expect(byPair['EUR>JPY']).toMatchObject({ out: '161.3791', amount: '806895', tomax: '806895' }); // 806895.5, JPY has no decimals
    expect(byPair['USDT>BTC']).toMatchObject({ out: '0.0000155123456789', amount: '1.55123456' }); // 1.55123456789
  });

  it('follows a rate change at once and leaves out inactive offers', async () => {
    const token = tokens.admin1;
    const patched = await call(server, 'PATCH', `/admin/offers/${world.offers.bUsdEur}`, {
      token,
      body: { rate: 0.9312345 },
    });
    expect(patched.status, patched.text).toBe(200);
    const atB = items((await xml(world.keys.public, { exchangeId: world.exchanges.B })).text);
    expect(atB).toEqual([
      {
        from: 'USD',
        to: 'EUR',
        in: '1',
        out: '0.9312345',
        amount: '465.61',
        frommin: '5',
        frommax: '500',
        tomin: '4.65',
        tomax: '465.61',
        minamount: '5 USD',
        maxamount: '500 USD',
      },
    ]);
  });

  it("is scoped to the key's branch and takes the JSON rates' filters", async () => {
    const other = items((await xml(world.keys.otherPublic)).text);
    expect(other).toEqual([
      {
        from: 'USD',
        to: 'EUR',
        in: '1',
        out: '0.9',
        amount: '90',
        frommin: '1',
        frommax: '100',
        tomin: '0.9',
        tomax: '90',
        minamount: '1 USD',
        maxamount: '100 USD',
      },
    ]);
    expect(items((await xml(world.keys.public, { exchangeId: world.exchanges.C })).text)).toEqual([]);
    const filtered = items((await xml(world.keys.public, { sourceCurrencyId: world.currencies.BTC })).text);
    expect(filtered.map((i) => i.to)).toEqual(['USD']);
  });

  it('answers 401 without a valid key and 400 for a bad filter, in the JSON error format', async () => {
    const anonymous = await call(server, 'GET', '/partner/public/rates.xml');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ statusCode: 401 });
    expect(
      (
        await call(server, 'GET', '/partner/public/rates.xml', {
          query: { exchangeId: 'x' } as never,
          key: world.keys.public,
        })
      ).status,
    ).toBe(400);
  });

  it('escapes the XML special characters of the text it writes', () => {
    const row = {
      id: 1,
      exchange_id: 1,
      rate: '2.50',
      min_amount: '1',
      max_amount: '10',
      updated_at: new Date(),
      c1_id: 1,
      c1_code: 'A&B',
      c2_id: 2,
      c2_code: '<C>"\'',
      c2_decimals: 2,
    };
    expect(rateItem(row)).toBe(
      '<item><from>A&amp;B</from><to>&lt;C&gt;&quot;&apos;</to><in>1</in><out>2.5</out><amount>25</amount>' +
        '<frommin>1</frommin><frommax>10</frommax><tomin>2.5</tomin><tomax>25</tomax>' +
        '<minamount>1 A&amp;B</minamount><maxamount>10 A&amp;B</maxamount></item>',
    );
  });

  it('answers 304 to the ETag it sent, with the key in the header or in the URL alike', async () => {
    const first = await byUrl({ key: world.keys.public });
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[\w-]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await byUrl({ key: world.keys.public }, { 'if-none-match': tag });
    expect([again.status, again.text, again.headers.get('content-type')]).toEqual([304, '', null]);
    expect((await xml(world.keys.public)).headers.get('etag')).toBe(tag);
    expect(
      (await byUrl({ key: world.keys.public, exchangeId: world.exchanges.B }, { 'if-none-match': tag })).status,
    ).toBe(200);
  });
});

describe('GET /partner/public/rates.xml?key= (a rate monitor is given a URL, and sends no header)', () => {
  it('takes a public key in the URL: the same body as with the header, and no query once warm', async () => {
    const res = await byUrl({ key: world.keys.public });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml');
    expect(res.text).toBe((await xml(world.keys.public)).text);
    expect(items(res.text).length).toBeGreaterThan(0);
    // With the JSON rates' filters beside it, and scoped to the key's branch.
    const filtered = await byUrl({ key: world.keys.public, sourceCurrencyId: world.currencies.BTC });
    expect(items(filtered.text).map((i) => i.to)).toEqual(['USD']);
    expect(items((await byUrl({ key: world.keys.otherPublic })).text).map((i) => i.out)).toEqual(['0.9']);
    // Served from the catalogue snapshot, the key from the key cache: a monitor's poll reads nothing.
    await eventually(async () => {
      const before = server.database.queryCount();
      expect((await byUrl({ key: world.keys.public })).status).toBe(200);
      return server.database.queryCount() === before;
    });
  });

  it('refuses a secret key in the URL unread, valid or not, with or without a header: 400 that says to roll it', async () => {
    // Keys of every secret type (a new type is covered as it is added), real or not, and any value shaped like one.
    const types = Object.keys(KEY_PREFIXES).filter((type) => type !== 'public') as ApiKeyType[];
    expect(types.length).toBeGreaterThan(1);
    const secrets = [
      world.keys.branch,
      world.keys.operatorA,
      world.keys.superadmin,
      ...types.map(generateApiKey),
      'sk_branch_nope',
      'SK_branch_x',
      ' sk_',
    ];
    for (const key of secrets) {
      for (const headers of [undefined, { authorization: `Bearer ${world.keys.public}` }]) {
        const res = await byUrl({ key }, headers);
        expect(res.status, key).toBe(400);
        expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errors: { key: 'notAllowed' } });
        expect(res.body.message).toMatch(/never accepted in a URL.*roll it/);
        expect(res.text).not.toContain(key);
        expect(res.text).not.toContain('<rates>');
      }
    }
  });

  it("refuses an unknown, malformed or revoked public key with the header path's 401 and message", async () => {
    const { key, rawKey } = await issueApiKey(server.db, {
      name: 'monitor',
      type: 'public',
      staffUserId: world.staff.superadmin.id,
      branchId: world.branches.b1,
    });
    expect((await byUrl({ key: rawKey })).status).toBe(200);
    await server.db
      .updateTable('api_keys')
      .set({ is_active: false, revoked_at: new Date() })
      .where('id', '=', key.id)
      .execute();
    await server.ctx.keys.invalidate(`key:${key.id}`);
    for (const bad of [rawKey, generateApiKey('public'), 'pk_short', `${world.keys.public}x`, '']) {
      const inUrl = await byUrl({ key: bad });
      expect(inUrl.status, bad).toBe(401);
      expect(inUrl.body).toEqual({ statusCode: 401, message: 'Invalid or revoked API key', error: 'Unauthorized' });
      if (bad) expect((await xml(bad)).body).toEqual(inUrl.body);
    }
    const none = await byUrl({});
    expect(none.status).toBe(401);
    expect(none.body.message).toMatch(/\?key=pk_/);
  });

  it('refuses a key in both the header and the URL, and a key given twice, as ambiguous (400)', async () => {
    for (const headers of [
      { authorization: `Bearer ${world.keys.public}` },
      { authorization: `Bearer ${world.keys.branch}` },
      { authorization: 'Basic x' },
    ]) {
      const res = await byUrl({ key: world.keys.public }, headers);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, errors: { key: 'ambiguous' } });
    }
    const twice = await call(
      server,
      'GET',
      `/partner/public/rates.xml?key=${world.keys.public}&key=${world.keys.public}`,
    );
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({ errors: { key: 'invalid' } });
  });

  it('takes a key in the URL on this route only', async () => {
    for (const path of ['/partner/public/rates', '/partner/public/currencies', '/partner/offers']) {
      const res = await call(server, 'GET', path, { query: { key: world.keys.public } });
      expect(res.status, path).toBe(401);
      expect(res.body.message).toBe('Missing API key: send Authorization: Bearer <API_KEY>');
    }
  });

  it("counts its refusals against the address's budget for requests without a valid key, as a 401", async () => {
    // A Redis namespace of its own: the other tests' refusals from this address are counted in this file's.
    const limited = await startTestServer({
      env: {
        RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3',
        REDIS_KEY_PREFIX: `pxstest-${randomBytes(4).toString('hex')}`,
      },
      database: server.database,
    });
    try {
      const get = (query: Record<string, string>) => call(limited, 'GET', '/partner/public/rates.xml', { query });
      const seen: string[] = [];
      for (const query of [
        { key: world.keys.branch },
        { key: 'pk_nope' },
        { key: world.keys.branch },
        { key: world.keys.branch },
      ]) {
        const res = await get(query);
        seen.push(`${res.status} ${res.headers.get('x-ratelimit-remaining')}`);
      }
      expect(seen).toEqual(['400 2', '401 1', '400 0', '429 0']);
    } finally {
      await limited.close();
    }
  });

  it("counts requests with the key in the URL against the key's own rate limit, as with the header", async () => {
    const limited = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '3' }, database: server.database });
    try {
      // A key of its own: with Redis, counts are shared by every server of this file.
      const { rawKey } = await issueApiKey(server.db, {
        name: 'limited monitor',
        type: 'public',
        staffUserId: world.staff.superadmin.id,
        branchId: world.branches.b1,
      });
      const get = (inUrl: boolean) =>
        call(limited, 'GET', '/partner/public/rates.xml', inUrl ? { query: { key: rawKey } } : { key: rawKey });
      const seen: string[] = [];
      for (const inUrl of [true, false, true, true]) {
        const res = await get(inUrl);
        seen.push(`${res.status} ${res.headers.get('x-ratelimit-remaining')}`);
      }
      expect(seen).toEqual(['200 2', '200 1', '200 0', '429 0']);
    } finally {
      await limited.close();
    }
  });
});
