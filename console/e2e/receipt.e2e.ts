import { describe, expect, it } from 'vitest';
import { demoCatalog } from './support/demo';
import { sharedScenario } from './support/scenario';

/**
 * An order's receipt printed by Chromium: one page on an A5 sheet and on an 80 mm roll, under the receipt's own
 * Content-Security-Policy (a style it did not allow would be a console error, which the scenario collects).
 */
let token: string;
let orderId: number;
const s = sharedScenario(async ({ server }) => {
  const catalog = await demoCatalog(server);
  const json = { 'content-type': 'application/json' };
  token = (
    await (
      await fetch(`${server.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(server.logins.admin),
      })
    ).json()
  ).accessToken;
  const staff = (method: string, path: string, body: unknown) =>
    fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...json },
      body: JSON.stringify(body),
    });
  // The longest name a client may have, right to left: the receipt must still fit.
  const client = await staff('POST', '/admin/clients', {
    firstName: 'عبد'.repeat(33),
    lastName: 'Receipt-Printer-' + 'x'.repeat(80),
    email: 'receipt.e2e@example.com',
    phone: '+15555550123',
  });
  if (client.status !== 201) throw new Error(`client: ${client.status} ${await client.text()}`);
  const order = await staff('POST', '/admin/orders', {
    cashbox: { id: catalog.central },
    currency1: { id: catalog.currency('USD') },
    currency2: { id: catalog.currency('EUR') },
    operationType: 'offer',
    clientAmount: 250,
    user: { id: ((await client.json()) as { id: number }).id },
    comment: 'receipt e2e',
  });
  if (order.status !== 201) throw new Error(`order: ${order.status} ${await order.text()}`);
  orderId = ((await order.json()) as { id: number }).id;
});

/** Pages of a PDF: its page objects (`/Type /Page`, not the `/Type /Pages` tree above them). */
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;

describe('the printed receipt', () => {
  it.each([
    ['a5', { format: 'A5' }],
    ['80mm', { preferCSSPageSize: true }],
  ] as const)('is one page on %s paper', async (paper, options) => {
    const page = s.page;
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${token}` });
    try {
      const res = await page.goto(`${s.server.url}/api/v1/admin/orders/${orderId}/receipt?paper=${paper}`);
      expect(res?.status()).toBe(200);
      const text = await page.locator('body').innerText();
      expect(text).toContain(`Order #${orderId}`);
      expect(text).toContain("Client's signature");
      // The page's stylesheet applied (its hash allowed by the CSP): the table spans the page.
      expect(await page.locator('table').evaluate((t) => getComputedStyle(t).borderCollapse)).toBe('collapse');
      const pdf = await page.pdf({ ...options, printBackground: false });
      expect(pageCount(pdf)).toBe(1);
      expect(s.browser.problems).toEqual([]);
    } finally {
      await page.setExtraHTTPHeaders({});
    }
  });
});
