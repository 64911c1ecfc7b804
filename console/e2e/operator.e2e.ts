import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { sharedScenario } from './support/scenario';

/** An operator's shift: the board fills by itself, an order is served step by step, and other exchanges stay unseen. */
let catalog: Awaited<ReturnType<typeof demoCatalog>>;
const s = sharedScenario(async ({ server }) => {
  catalog = await demoCatalog(server);
});

const column = (status: string) => s.page.locator(`[data-column="${status}"]`);
/** An order's card, named by what it shows ("Order #12 … 100 USD → 92.15 EUR …"). */
const card = (status: string, id: number) => column(status).getByRole('link', { name: new RegExp(`^Order #${id}\\b`) });

describe('an operator', () => {
  it('sees a new order arrive on the board without reloading, moves it to SUCCESS, and the partner API agrees', async () => {
    await logIn(s.page, s.server.url, s.server.logins.operator);
    await s.page.getByRole('link', { name: 'Orders' }).click();
    await s.page.locator('[data-stream="live"]').waitFor();
    const loads: string[] = [];
    s.page.on('framenavigated', (f) => {
      if (f === s.page.mainFrame()) loads.push(f.url());
    });

    const order = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 100,
    });
    const newCard = card('ORDERINIT', order.id);
    // Pushed by the stream (no reload, no polling): within the default step timeout, as a loaded machine may need.
    await newCard.waitFor();
    expect(loads).toEqual([]);
    await expect(newCard.innerText()).resolves.toContain('100 USD → 92.15 EUR');
    await screenshot(s.page, 'order-board');

    await newCard.click();
    await s.page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    // Only the moves allowed from ORDERINIT are offered.
    expect(
      await s.page.locator('[data-move]').evaluateAll((els) => els.map((e) => e.getAttribute('data-move'))),
    ).toEqual(['CLIENTPAYMENTWAIT', 'CANCEL']);
    await screenshot(s.page, 'order-detail');

    await s.page.getByRole('textbox', { name: 'Comment (optional)' }).fill('Client is at the desk');
    for (const [button, status] of [
      ['Await client payment', 'CLIENTPAYMENTWAIT'],
      ['Client paid', 'EXCHANGEPAYMENTWAIT'],
      ['Cash out', 'CASHOUT'],
      ['Complete', 'SUCCESS'],
    ]) {
      await s.page.getByRole('button', { name: button, exact: true }).click();
      await s.page.locator(`[data-history-status="${status}"]`).waitFor();
    }
    await s.page.getByText('This order is done: it cannot move any more.').waitFor();
    expect(await s.page.locator('[data-history-status]').count()).toBe(5);
    await s.page.getByText('“Client is at the desk”').waitFor();

    const seen = await s.server.partner('GET', `/orders/${order.id}`, s.server.keys.branch);
    expect(seen.status).toBe(200);
    expect(seen.body.status).toBe('SUCCESS');
  });

  it('never sees an order of an exchange that is not theirs, on the board, in search or by its address', async () => {
    await s.page.getByRole('link', { name: 'Orders' }).click();
    await s.page.locator('[data-stream="live"]').waitFor();
    const theirs = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('EUR'),
      to: catalog.currency('USD'),
      amount: 50,
    });
    const other = await partnerOrder(s.server, {
      cashbox: catalog.airport,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 50,
    });
    // The order of their exchange, created after the other one, arrives: the other had its chance and did not.
    const later = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 20,
    });
    await card('ORDERINIT', later.id).waitFor();
    await card('ORDERINIT', theirs.id).waitFor();
    expect(await s.page.locator(`[data-order-id="${other.id}"]`).count()).toBe(0);

    await s.page.getByRole('searchbox', { name: 'Search orders' }).fill(other.hashedId);
    await s.page.getByText('No orders.').waitFor();
    await s.page.getByRole('searchbox', { name: 'Search orders' }).fill(theirs.hashedId);
    await s.page.getByRole('table', { name: `Orders matching ${theirs.hashedId}` }).waitFor();

    await s.page.goto(`${s.server.url}/orders/${other.id}`);
    await s.page.getByText('Could not load this').waitFor();
    await expect(s.page.getByRole('alert').innerText()).resolves.toContain('Order not found');
    expect(s.browser.problems).toEqual([]);
  });
  it('says an address that names no order is not found, without asking the API', async () => {
    const asked: string[] = [];
    s.page.on('request', (r) => {
      if (r.url().includes('/api/v1/admin/orders/')) asked.push(r.url());
    });
    await s.page.goto(`${s.server.url}/orders/abc`);
    await s.page.getByRole('alert').getByText('Order not found').waitFor();
    expect(asked.filter((u) => !u.includes('/admin/orders/stream'))).toEqual([]);
    expect(s.browser.problems).toEqual([]);
  });
});
