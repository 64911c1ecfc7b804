import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateItem } from '../../src/features/catalog/rates-xml.js';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const FIELDS = ['from', 'to', 'in', 'out', 'amount', 'minamount', 'maxamount'] as const;
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
  const pattern = /"sourceCurrency":\{"id":\d+,"ticker":"([^"]+)"\},"destCurrency":\{"id":\d+,"ticker":"([^"]+)"\},"rate":([^,]+),"minAmount":([^,]+),"maxAmount":([^,]+),/g;
  return [...text.matchAll(pattern)].map(([, from, to, rate, min, max]) => ({ from, to, rate, min, max }));
}

const xml = (key: string, query?: Record<string, number>) => call(server, 'GET', '/partner/public/rates.xml', { key, query });

describe('GET /partner/public/rates.xml', () => {
  it('lists the JSON rates\' offers figure by figure, exactly, as application/xml', async () => {
    const res = await xml(world.keys.public);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rates>\n(<item>.*<\/item>\n)+<\/rates>\n$/);
    const json = await call(server, 'GET', '/partner/public/rates', { key: world.keys.public });
    const expected = jsonRates(json.text);
    const got = items(res.text);
    expect(expected.length).toBe(json.body.length);
    expect(got.length).toBe(expected.length);
    got.forEach((item, i) => {
      const j = expected[i];
      expect([item.from, item.to, item.in]).toEqual([j.from, j.to, '1']);
      for (const text of [item.out, item.amount, item.minamount, item.maxamount]) expect(text).not.toMatch(/\d[eE][+-]?\d/);
      expect(new Decimal(item.out).eq(j.rate), `${item.out} = ${j.rate}`).toBe(true);
      expect(item.minamount).toBe(`${new Decimal(j.min).toFixed()} ${j.from}`);
      expect(item.maxamount).toBe(`${new Decimal(j.max).toFixed()} ${j.from}`);
    });
  });

  it('writes the payout limit in the destination currency, rounded down to its decimals', async () => {
    const byPair = Object.fromEntries(items((await xml(world.keys.branch, { exchangeId: world.exchanges.A })).text).map((i) => [`${i.from}>${i.to}`, i]));
    expect(byPair['USD>EUR']).toMatchObject({ out: '0.9215', amount: '9215', minamount: '10 USD', maxamount: '10000 USD' });
    expect(byPair['BTC>USD']).toMatchObject({ out: '64250.17', amount: '321250.85', minamount: '0.0001 BTC', maxamount: '5 BTC' });
    expect(byPair['EUR>JPY']).toMatchObject({ out: '161.3791', amount: '806895' }); // 806895.5, JPY has no decimals
    expect(byPair['USDT>BTC']).toMatchObject({ out: '0.0000155123456789', amount: '1.55123456' }); // 1.55123456789
  });

  it('follows a rate change at once and leaves out inactive offers', async () => {
    const token = tokens.admin1;
    const patched = await call(server, 'PATCH', `/admin/offers/${world.offers.bUsdEur}`, { token, body: { rate: 0.9312345 } });
    expect(patched.status, patched.text).toBe(200);
    const atB = items((await xml(world.keys.public, { exchangeId: world.exchanges.B })).text);
    expect(atB).toEqual([{ from: 'USD', to: 'EUR', in: '1', out: '0.9312345', amount: '465.61', minamount: '5 USD', maxamount: '500 USD' }]);
  });

  it('is scoped to the key\'s branch and takes the JSON rates\' filters', async () => {
    const other = items((await xml(world.keys.otherPublic)).text);
    expect(other).toEqual([{ from: 'USD', to: 'EUR', in: '1', out: '0.9', amount: '90', minamount: '1 USD', maxamount: '100 USD' }]);
    expect(items((await xml(world.keys.public, { exchangeId: world.exchanges.C })).text)).toEqual([]);
    const filtered = items((await xml(world.keys.public, { sourceCurrencyId: world.currencies.BTC })).text);
    expect(filtered.map((i) => i.to)).toEqual(['USD']);
  });

  it('answers 401 without a valid key and 400 for a bad filter, in the JSON error format', async () => {
    const anonymous = await call(server, 'GET', '/partner/public/rates.xml');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ statusCode: 401 });
    expect((await call(server, 'GET', '/partner/public/rates.xml', { query: { exchangeId: 'x' } as never, key: world.keys.public })).status).toBe(400);
  });

  it('escapes the XML special characters of the text it writes', () => {
    const row = {
      id: 1, exchange_id: 1, rate: '2.50', min_amount: '1', max_amount: '10', updated_at: new Date(),
      c1_id: 1, c1_code: 'A&B', c2_id: 2, c2_code: '<C>"\'', c2_decimals: 2,
    };
    expect(rateItem(row)).toBe('<item><from>A&amp;B</from><to>&lt;C&gt;&quot;&apos;</to><in>1</in><out>2.5</out><amount>25</amount>'
      + '<minamount>1 A&amp;B</minamount><maxamount>10 A&amp;B</maxamount></item>');
  });
});
