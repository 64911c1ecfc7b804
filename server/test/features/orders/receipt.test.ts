import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';
import { orderBody, placeOrder } from './support.js';
import { receiptAmount } from '../../../src/features/orders/receipt.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

const receipt = (id: number, token = tokens.operatorA, query?: Record<string, string>) =>
  call(server, 'GET', `/admin/orders/${id}/receipt`, { token, query });

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  // Exchange A keeps Nepal's time (UTC+05:45) and a name and address that need escaping and isolating.
  await server.db
    .updateTable('exchanges')
    .set({ name: 'A & Sons <Exchange>', address: 'شارع ‮ 1', timezone: 'Asia/Kathmandu' })
    .where('id', '=', world.exchanges.A)
    .execute();
});
afterAll(() => server?.close());

/** The wall clock of Kathmandu (UTC+05:45, no daylight saving) at an instant, by arithmetic, not Intl. */
function kathmandu(iso: string): string {
  const local = new Date(Date.parse(iso) + (5 * 60 + 45) * 60_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)} GMT+05:45`;
}

describe('GET /admin/orders/{id}/receipt', () => {
  it('prints an amount with every decimal of its currency and its thousands grouped, never rounded', () => {
    expect(receiptAmount('38.7', 2)).toBe('38.70');
    expect(receiptAmount('38.700000000000000000', 2)).toBe('38.70');
    expect(receiptAmount('1234567', 0)).toBe('1\u2009234\u2009567');
    expect(receiptAmount('999.5', 2)).toBe('999.50');
    expect(receiptAmount('1000', 2)).toBe('1\u2009000.00');
    expect(receiptAmount('0.01915104', 8)).toBe('0.01915104');
    expect(receiptAmount('12345678901234567.25', 2)).toBe('12\u2009345\u2009678\u2009901\u2009234\u2009567.25');
  });

  it("prints the office, the order's exact amounts and rate, the office's local time and the cashier", async () => {
    const client = await call(server, 'POST', '/admin/clients', {
      token: tokens.operatorA,
      body: { firstName: '<b>"O\'Brien"', lastName: 'محمد & Co', email: 'obrien@example.com', phone: '+9779812345678' },
    });
    expect(client.status, client.text).toBe(201);
    const order = await call(server, 'POST', '/admin/orders', {
      token: tokens.operatorA,
      body: orderBody(world, {
        currency1: { id: world.currencies.USDT },
        currency2: { id: world.currencies.BTC },
        clientAmount: 1234.567891,
        user: { id: client.body.id },
      }),
    });
    expect(order.status, order.text).toBe(201);
    const res = await receipt(order.body.id);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = res.text;
    expect(html).toContain('<h1><bdi>A &amp; Sons &lt;Exchange&gt;</bdi></h1>');
    expect(html).toContain('<bdi>شارع ‮ 1</bdi>, <bdi>Alpha</bdi>');
    expect(html).toContain(`Order #${order.body.id}`);
    expect(html).toContain(order.body.hashedId);
    // 1234.567891 × 0.0000155123456789 = 0.01915104…, rounded down to BTC's 8 decimals. Thousands are grouped
    // with a thin space.
    expect(html).toContain('<td>1\u2009234.567891 USDT</td>');
    expect(html).toContain('<td>0.01915104 BTC</td>');
    expect(html).toContain('<td>1 USDT = 0.0000155123456789 BTC</td>');
    expect(html).toContain(`<td>${kathmandu(order.body.createdAt)}</td>`);
    expect(html).toContain('<td>ORDERINIT</td>');
    expect(html).toContain(`<td><bdi>${world.staff.operatorA.email}</bdi></td>`);
    expect(html).toContain('<td><bdi>&lt;b&gt;&quot;O&#39;Brien&quot; محمد &amp; Co</bdi></td>');
    expect(html).toContain("Client's signature");
    expect(html).not.toMatch(/<script|<b>|javascript:/i);
  });

  it('sends a CSP that allows its own stylesheet (by hash) and nothing else; A5 by default, 80 mm on request', async () => {
    const { id } = await placeOrder(server, world.keys.branch, orderBody(world));
    for (const [paper, size] of [
      [undefined, '@page { size: A5 portrait;'],
      ['a5', '@page { size: A5 portrait;'],
      ['80mm', '@page { size: 80mm'],
    ] as const) {
      const res = await receipt(id, tokens.operatorA, paper ? { paper } : undefined);
      expect(res.status, res.text).toBe(200);
      const style = /<style>([^<]*)<\/style>/.exec(res.text)![1]!;
      expect(style).toContain(size);
      const hash = createHash('sha256').update(style).digest('base64');
      expect(res.headers.get('content-security-policy')).toBe(
        `default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; script-src 'none'; ` +
          "base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
      );
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await receipt(id, tokens.operatorA, { paper: 'a4' })).status).toBe(400);
  });

  it("names as cashier of a partner's order the staff user who last moved it, or none", async () => {
    const { id, createdAt } = await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 100 }));
    const before = await receipt(id);
    expect(before.text).toContain('<th>Cashier</th><td>—</td>');
    // Every decimal of the currency, as a cashier counts it.
    expect(before.text).toContain('<td>100.00 USD</td>');
    expect(before.text).toContain('<td>92.15 EUR</td>');
    expect(before.text).toContain(`<td>${kathmandu(createdAt)}</td>`);
    const moved = await call(server, 'POST', `/admin/orders/${id}/status`, {
      token: tokens.admin1,
      body: { status: 'CLIENTPAYMENTWAIT' },
    });
    expect(moved.status, moved.text).toBe(200);
    const after = await receipt(id);
    expect(after.text).toContain(`<th>Cashier</th><td><bdi>${world.staff.admin1.email}</bdi></td>`);
    expect(after.text).toContain('<td>CLIENTPAYMENTWAIT</td>');
  });

  it('is read in the order’s scope: 404 for another exchange’s operator and another branch, 401 without a token', async () => {
    const { id } = await placeOrder(server, world.keys.branch, orderBody(world));
    expect((await receipt(id, tokens.operatorB)).status).toBe(404);
    expect((await receipt(id, tokens.admin2)).status).toBe(404);
    expect((await receipt(id, tokens.readOnlyA)).status).toBe(200);
    expect((await receipt(id, tokens.superadmin)).status).toBe(200);
    expect((await call(server, 'GET', `/admin/orders/${id}/receipt`)).status).toBe(401);
    expect((await receipt(2_000_000_000)).status).toBe(404);
    expect((await call(server, 'GET', '/admin/orders/abc/receipt', { token: tokens.operatorA })).status).toBe(400);
  });
});
