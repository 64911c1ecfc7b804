import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { scenario } from './support/scenario';

/**
 * What a newcomer found: lists said "client #1" and the history "staff #3" where the order page said "Ana Silva",
 * sandbox orders looked like real ones, and 10000 had no grouping. People by name, test orders marked, numbers as
 * the locale writes them (Chromium here speaks en-US: 9,000.5), digit for digit.
 */
let catalog: Awaited<ReturnType<typeof demoCatalog>>;
const s = scenario({}, async ({ server }) => {
  catalog = await demoCatalog(server);
});

async function staffApi(login: { email: string; password: string }, method: string, path: string, body?: unknown) {
  const json = { 'content-type': 'application/json' };
  const token = (
    await (
      await fetch(`${s.server.url}/api/v1/auth/login`, { method: 'POST', headers: json, body: JSON.stringify(login) })
    ).json()
  ).accessToken;
  const res = await fetch(`${s.server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : json) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

describe('the console names people, marks test orders and groups figures', () => {
  it("shows a sandbox order's amounts grouped, marked Sandbox on the board and its page, with its client and its movers by name", async () => {
    const clients = (await s.server.partner('GET', '/clients?limit=10', s.server.keys.branch)).body.data as {
      id: number;
      firstName: string;
    }[];
    const ana = clients.find((c) => c.firstName === 'Ana')!;
    const res = await s.server.partner('POST', '/orders', s.server.keys.branch, {
      cashbox: { id: catalog.central },
      currency1: { id: catalog.currency('USD') },
      currency2: { id: catalog.currency('EUR') },
      operationType: 'offer',
      clientAmount: 9000.5,
      user: { id: ana.id },
    });
    expect(res.status).toBe(201);
    const order = res.body as { id: number; exchangeAmount: number };
    // The figure the API gave, grouped digit for digit (no rounding, no float arithmetic in between).
    const [whole, fraction] = String(order.exchangeAmount).split('.');
    const gets = `${Number(whole).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''} EUR`;

    await logIn(s.page, s.server.url, s.server.logins.operator);
    await s.page.goto(`${s.server.url}/orders`);
    const card = s.page.locator(`[data-column="ORDERINIT"] a[data-order-id="${order.id}"]`);
    await card.waitFor();
    await expect(card.innerText()).resolves.toContain(`9,000.5 USD → ${gets}`);
    await card.getByText('Sandbox').waitFor();

    await s.page.goto(`${s.server.url}/orders?view=all`);
    const row = s.page.getByRole('table', { name: 'All orders' }).locator(`tr[data-order-id="${order.id}"]`);
    await row.getByText('Ana Silva').waitFor();
    await row.getByText('Sandbox').waitFor();
    await expect(row.innerText()).resolves.not.toMatch(/client #/);
    await screenshot(s.page, 'orders-all-names');

    await s.page.goto(`${s.server.url}/orders/${order.id}`);
    await s.page.getByRole('button', { name: 'Await client payment' }).click();
    await s.page
      .locator('[data-history-status="CLIENTPAYMENTWAIT"]')
      .getByText(s.server.logins.operator.email)
      .waitFor();
    await s.page.locator('main [data-sandbox]').getByText('Sandbox').waitFor();
    await s.page.getByText('9,000.5 USD').waitFor();
    expect((await s.page.locator('[data-history-status]').allInnerTexts()).join(' ')).not.toMatch(/staff #\d/);
    expect(s.browser.problems).toEqual([]);
  });

  it('marks no order of a branch that is not a sandbox', async () => {
    const lookups = (await staffApi(s.server.logins.superadmin, 'GET', '/admin/lookups')) as {
      branches: { id: number; name: string }[];
    };
    const demo = lookups.branches.find((b) => b.name === 'Demo Branch')!;
    await staffApi(s.server.logins.superadmin, 'PATCH', `/admin/branches/${demo.id}`, { isSandbox: false });
    const real = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 30,
    });
    await s.page.goto(`${s.server.url}/orders/${real.id}`);
    await s.page.getByRole('heading', { name: `Order #${real.id}`, level: 1 }).waitFor();
    await expect(s.page.locator('main [data-sandbox]').count()).resolves.toBe(0);
    await s.page.goto(`${s.server.url}/orders`);
    await s.page.locator(`a[data-order-id="${real.id}"]`).waitFor();
    await expect(s.page.locator(`a[data-order-id="${real.id}"] [data-sandbox]`).count()).resolves.toBe(0);
  });

  it("names a webhook's owner by their login in the list", async () => {
    await s.server.partner('POST', '/webhooks', s.server.keys.personal, {
      url: 'http://127.0.0.1:8/personal',
      events: ['order.created'],
    });
    const page = await s.browser.page();
    await logIn(page, s.server.url, s.server.logins.admin);
    await page.goto(`${s.server.url}/webhooks`);
    const row = page.getByRole('row').filter({ hasText: '127.0.0.1:8/personal' });
    await row.getByText(s.server.logins.operator.email).waitFor();
    await expect(row.innerText()).resolves.not.toMatch(/staff #/);
    expect(s.browser.problems).toEqual([]);
  });
});
