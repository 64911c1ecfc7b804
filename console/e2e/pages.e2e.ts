import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutBadges, unlabelledControls } from './support/a11y';
import { logIn, openBrowser, screenshot, type Browser } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { startDemoServer, type DemoServer } from './support/server';

/**
 * Every page of the console, as the role that uses it, at 1280×800 and on a tablet: it renders its data, every
 * control has a label, nothing fails in the browser, and a screenshot of each is kept for review (CI artefacts).
 */
let server: DemoServer;
let browser: Browser & { problems: string[] };
let orderId: number;
let webhookId: string;

beforeAll(async () => {
  server = await startDemoServer();
  browser = await openBrowser();
  const catalog = await demoCatalog(server);
  orderId = (
    await partnerOrder(server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 250,
    })
  ).id;
  await partnerOrder(server, {
    cashbox: catalog.central,
    from: catalog.currency('EUR'),
    to: catalog.currency('USD'),
    amount: 80,
  });
  await partnerOrder(server, {
    cashbox: catalog.airport,
    from: catalog.currency('EUR'),
    to: catalog.currency('JPY'),
    amount: 120,
  });
  webhookId = (
    await server.partner('POST', '/webhooks', server.keys.branch, {
      url: 'http://127.0.0.1:8/hooks',
      events: ['order.created', 'offer.updated'],
    })
  ).body.id;
  await changeARate(server);
});

/** An admin's rate change through the staff API, so the audit log has a before and an after to show. */
async function changeARate(s: DemoServer) {
  const json = { 'content-type': 'application/json' };
  const login = await (
    await fetch(`${s.url}/api/v1/auth/login`, { method: 'POST', headers: json, body: JSON.stringify(s.logins.admin) })
  ).json();
  const auth = { authorization: `Bearer ${login.accessToken}` };
  const offers = await (await fetch(`${s.url}/api/v1/admin/offers?limit=1`, { headers: auth })).json();
  const res = await fetch(`${s.url}/api/v1/admin/offers/${offers.data[0].id}`, {
    method: 'PATCH',
    headers: { ...json, ...auth },
    body: JSON.stringify({ rate: '0.9123' }),
  });
  if (res.status !== 200) throw new Error(`rate change: ${res.status} ${await res.text()}`);
}
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function visit(page: Page, path: string, heading: string | RegExp, shot: string) {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[aria-label="Loading"]').length === 0);
  expect(await unlabelledControls(page), path).toEqual([]);
  expect(await cutBadges(page), path).toEqual([]);
  await screenshot(page, shot);
}

describe('every page', () => {
  it('logs in with the keyboard alone', async () => {
    const page = await browser.page();
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'Staff console' }).waitFor();
    expect(page.url()).toBe(`${server.url}/login`);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, 'login');
    await page.keyboard.type(server.logins.superadmin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(server.logins.superadmin.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  });

  it('renders each superadmin page with its data, labelled controls and no browser error', async () => {
    const page = await browser.page();
    await logIn(page, server.url, server.logins.superadmin);
    const pages: [string, string | RegExp, string, string?][] = [
      ['/', 'Home', 'home-superadmin', 'Waiting longest'],
      ['/orders', 'Orders', 'orders-board', `#${orderId}`],
      [`/orders/${orderId}`, `Order #${orderId}`, 'order', 'Status history'],
      ['/orders/new', 'New counter order', 'counter-order-superadmin', 'Create and print'],
      ['/reports', 'Reports', 'reports-superadmin', 'Per cashier'],
      ['/offers', 'Offers and rates', 'offers-superadmin', 'USD → EUR'],
      ['/exchanges', 'Exchanges', 'exchanges', 'Airport Desk'],
      ['/payment-methods', 'Payment methods', 'payment-methods', 'Every exchange'],
      ['/clients', 'Clients', 'clients', 'ana.silva@example.com'],
      ['/staff', 'Staff', 'staff', 'operator@demo.local'],
      ['/currencies', 'Currencies', 'currencies', 'USDT'],
      ['/branches', 'Branches', 'branches', 'Other Branch'],
      ['/api-keys', 'API keys', 'api-keys-superadmin', 'Demo branch key'],
      ['/webhooks', 'Webhooks', 'webhooks-list', '127.0.0.1:8/hooks'],
      [`/webhooks/${webhookId}`, 'Webhook', 'webhook', 'Delivery log'],
      ['/audit', 'Audit log', 'audit', 'offer.update'],
      ['/no-such-page', 'Page not found', 'not-found'],
    ];
    for (const [path, heading, shot, text] of pages) {
      await visit(page, path, heading, shot);
      if (text) await page.getByText(text, { exact: false }).first().waitFor();
    }
    await page.goto(`${server.url}/audit`);
    await page.getByRole('button', { name: 'Changes' }).first().click();
    await page
      .getByRole('table', { name: /^Changes of offer.update/ })
      .getByText('0.9123')
      .waitFor();
    await screenshot(page, 'audit-changes');
    const exchange = page.getByRole('link', { name: 'Central Exchange' });
    await page.goto(`${server.url}/exchanges`);
    await exchange.click();
    await page.getByRole('table', { name: 'Weekly schedule' }).waitFor();
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, 'exchange-edit');
    expect(browser.problems).toEqual([]);
  }, 180_000);

  it("edits an exchange's weekly schedule", async () => {
    const page = await browser.page();
    await logIn(page, server.url, server.logins.admin);
    await page.getByRole('link', { name: 'Exchanges' }).click();
    await page.getByRole('link', { name: 'Airport Desk', exact: true }).click();
    const sunday = page.locator('tr[data-day="7"]');
    await sunday.getByRole('checkbox', { name: 'Closed' }).check();
    await page.getByRole('textbox', { name: 'Monday opens' }).fill('07:15');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Airport Desk: saved').waitFor();
    const exchanges = (await server.partner('GET', '/public/exchanges', server.keys.public)).body as {
      name: string;
      schedule: { dayOfWeek: number; openTime: string | null; isClosed: boolean }[];
    }[];
    const airport = exchanges.find((e) => e.name === 'Airport Desk')!;
    expect(airport.schedule.find((d) => d.dayOfWeek === 7)).toMatchObject({ isClosed: true });
    expect(airport.schedule.find((d) => d.dayOfWeek === 1)?.openTime).toMatch(/^07:15/);
    // The audit log shows the time that moved, not the week as two blobs of JSON.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('button', { name: 'Changes' }).first().click();
    const changes = page.getByRole('table', { name: /^Changes of exchange\.update/ });
    const row = changes
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: /^schedule\.\d+\.openTime$/ }) })
      .filter({ hasText: '07:15' });
    await row.waitFor();
    await expect(row.getByRole('cell').nth(2).innerText()).resolves.toBe('07:15');
    await screenshot(page, 'audit-schedule-change');
  });

  it('shows a schedule error on the day it is about, and refuses a latitude without a longitude', async () => {
    const page = await browser.page();
    await logIn(page, server.url, server.logins.admin);
    await page.goto(`${server.url}/exchanges`);
    await page.getByRole('link', { name: 'Central Exchange' }).click();
    // Monday unpublished: the API numbers Wednesday 1, which is Tuesday's row in the full week.
    await page.locator('tr[data-day="1"]').getByRole('checkbox', { name: 'Published' }).uncheck();
    await page.getByRole('textbox', { name: 'Wednesday opens' }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    // The refusal comes back from the API: wait for it rather than read the field at once.
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Wednesday opens' }).getAttribute('aria-invalid'), {
        timeout: 10_000,
      })
      .toBe('true');
    await expect(page.getByRole('textbox', { name: 'Tuesday opens' }).getAttribute('aria-invalid')).resolves.not.toBe(
      'true',
    );
    await screenshot(page, 'exchange-schedule-error');

    await page.reload();
    await page.getByRole('textbox', { name: 'Longitude' }).fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Give both latitude and longitude, or neither').waitFor();
    const exchanges = (await server.partner('GET', '/public/exchanges', server.keys.public)).body as {
      name: string;
      contacts: { location: { longitude: number } | null };
    }[];
    expect(exchanges.find((e) => e.name === 'Central Exchange')?.contacts.location?.longitude).toBe(-9.136592);
    expect(browser.problems).toEqual([]);
  });

  it("refuses a currency's impossible decimals under the field, as the API says, instead of changing them", async () => {
    const page = await browser.page();
    await logIn(page, server.url, server.logins.superadmin);
    await page.getByRole('link', { name: 'Currencies' }).click();
    await page.getByRole('textbox', { name: 'Ticker' }).fill('CHF');
    await page.getByRole('textbox', { name: 'Name' }).fill('Swiss franc');
    const decimals = page.getByRole('textbox', { name: 'Decimals' });
    await decimals.fill('99');
    await page.getByRole('button', { name: 'Add' }).click();
    // Under its field, the message leaves out the API's name for it.
    await page.getByText('Must not be greater than 18').waitFor();
    await expect(decimals.inputValue()).resolves.toBe('99');
    await page.reload();
    await page.getByRole('table', { name: 'Currencies' }).getByRole('cell', { name: 'USD', exact: true }).waitFor();
    await expect(
      page.getByRole('table', { name: 'Currencies' }).getByRole('cell', { name: 'CHF', exact: true }).count(),
    ).resolves.toBe(0);
    expect(browser.problems).toEqual([]);
  });

  it("says when no client matches, and offers a superadmin only the chosen branch's exchanges for a payment method", async () => {
    const page = await browser.page();
    await logIn(page, server.url, server.logins.superadmin);
    await page.goto(`${server.url}/clients`);
    await page.getByRole('searchbox', { name: 'Search clients' }).fill('nobody-by-this-name');
    await page.getByText('No clients match “nobody-by-this-name”.').waitFor();

    await page.goto(`${server.url}/payment-methods`);
    const form = page.getByRole('form', { name: 'New payment method' });
    const pick = async (label: string, option: string) => {
      await form.getByRole('combobox', { name: label }).click();
      await page.getByRole('option', { name: option }).click();
    };
    await pick('Branch', 'Demo Branch');
    await pick('Only at exchange', 'Central Exchange');
    await pick('Branch', 'Other Branch');
    await expect(form.getByRole('combobox', { name: 'Only at exchange' }).inputValue()).resolves.toBe('');
    await form.getByRole('combobox', { name: 'Only at exchange' }).click();
    await expect(page.getByRole('option', { name: 'Central Exchange' }).count()).resolves.toBe(0);
    expect(browser.problems).toEqual([]);
  });

  it('shows an operator only its pages, and works on a tablet', async () => {
    const page = await browser.page({ width: 768, height: 1024 });
    await logIn(page, server.url, server.logins.operator);
    await screenshot(page, 'home-operator-tablet');
    const nav = page.getByRole('button', { name: 'Toggle navigation' });
    await nav.click();
    const links = await page.getByRole('navigation', { name: 'Pages' }).getByRole('link').allInnerTexts();
    expect(links).toEqual(['Home', 'Orders', 'Cash', 'Reports', 'Clients', 'API keys', 'Webhooks']);
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.locator(`[data-order-id="${orderId}"]`).first().waitFor();
    await screenshot(page, 'orders-board-tablet');
    await visit(page, `/orders/${orderId}`, `Order #${orderId}`, 'order-tablet');
    await visit(page, '/offers', 'No access', 'operator-no-offers');
    expect(browser.problems).toEqual([]);
  });
});
