import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openBrowser, screenshot, type Browser } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { startDemoServer, type DemoServer } from './support/server';

/** An operator's shift: the board fills by itself, an order is served step by step, and other exchanges stay unseen. */
let server: DemoServer;
let browser: Browser & { problems: string[] };
let page: Page;
let catalog: Awaited<ReturnType<typeof demoCatalog>>;

beforeAll(async () => {
  server = await startDemoServer();
  catalog = await demoCatalog(server);
  browser = await openBrowser();
  page = await browser.page();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const column = (status: string) => page.locator(`[data-column="${status}"]`);

describe('an operator', () => {
  it('sees a new order arrive on the board without reloading, moves it to SUCCESS, and the partner API agrees', async () => {
    await logIn(page, server.url, server.logins.operator);
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.locator('[data-stream="live"]').waitFor();
    const loads: string[] = [];
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) loads.push(f.url()); });

    const order = await partnerOrder(server, { cashbox: catalog.central, from: catalog.currency('USD'), to: catalog.currency('EUR'), amount: 100 });
    const card = column('ORDERINIT').getByRole('link', { name: `Order ${order.id}` });
    await card.waitFor({ timeout: 5000 });
    expect(loads).toEqual([]);
    await expect(card.innerText()).resolves.toContain('100 USD → 92.15 EUR');
    await screenshot(page, 'order-board');

    await card.click();
    await page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    // Only the moves allowed from ORDERINIT are offered.
    expect(await page.locator('[data-move]').evaluateAll((els) => els.map((e) => e.getAttribute('data-move')))).toEqual(['CLIENTPAYMENTWAIT', 'CANCEL']);
    await screenshot(page, 'order-detail');

    await page.getByRole('textbox', { name: 'Comment (optional)' }).fill('Client is at the desk');
    for (const [button, status] of [['Await client payment', 'CLIENTPAYMENTWAIT'], ['Client paid', 'EXCHANGEPAYMENTWAIT'], ['Cash out', 'CASHOUT'], ['Complete', 'SUCCESS']]) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.locator(`[data-history-status="${status}"]`).waitFor();
    }
    await expect(page.getByText('This order is done: it cannot move any more.').isVisible()).resolves.toBe(true);
    expect(await page.locator('[data-history-status]').count()).toBe(5);
    await expect(page.getByText('“Client is at the desk”').isVisible()).resolves.toBe(true);

    const seen = await server.partner('GET', `/orders/${order.id}`, server.keys.branch);
    expect(seen.status).toBe(200);
    expect(seen.body.status).toBe('SUCCESS');
  });

  it('never sees an order of an exchange that is not theirs, on the board, in search or by its address', async () => {
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.locator('[data-stream="live"]').waitFor();
    const theirs = await partnerOrder(server, { cashbox: catalog.central, from: catalog.currency('EUR'), to: catalog.currency('USD'), amount: 50 });
    const other = await partnerOrder(server, { cashbox: catalog.airport, from: catalog.currency('USD'), to: catalog.currency('EUR'), amount: 50 });
    // The order of their exchange, created after the other one, arrives: the other had its chance and did not.
    const later = await partnerOrder(server, { cashbox: catalog.central, from: catalog.currency('USD'), to: catalog.currency('EUR'), amount: 20 });
    await column('ORDERINIT').getByRole('link', { name: `Order ${later.id}` }).waitFor({ timeout: 5000 });
    await column('ORDERINIT').getByRole('link', { name: `Order ${theirs.id}` }).waitFor();
    expect(await page.locator(`[data-order-id="${other.id}"]`).count()).toBe(0);

    await page.getByRole('searchbox', { name: 'Search orders' }).fill(other.hashedId);
    await page.getByText('No orders.').waitFor();
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(theirs.hashedId);
    await page.getByRole('table', { name: `Orders matching ${theirs.hashedId}` }).waitFor();

    await page.goto(`${server.url}/orders/${other.id}`);
    await page.getByText('Could not load this').waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('order');
    expect(browser.problems).toEqual([]);
  });
});
