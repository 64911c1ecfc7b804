import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { sharedScenario } from './support/scenario';

/**
 * The counter searches, opens an order and comes back: the search (and the board's other choices) live in the
 * address, so Back, or the order page's "Back to the board", brings them back without retyping.
 */
let catalog: Awaited<ReturnType<typeof demoCatalog>>;
const s = sharedScenario(async ({ server }) => {
  catalog = await demoCatalog(server);
});

const searchbox = () => s.page.getByRole('searchbox', { name: 'Search orders' });

describe('the order board', () => {
  it('keeps a search in the address: Back and "Back to the board" return to the results', async () => {
    const order = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 70,
    });
    await logIn(s.page, s.server.url, s.server.logins.operator);
    await s.page.getByRole('link', { name: 'Orders' }).click();
    await searchbox().fill(order.hashedId);
    const results = s.page.getByRole('table', { name: `Orders matching ${order.hashedId}` });
    await results.waitFor();
    await s.page.waitForURL((u) => u.pathname === '/orders' && u.searchParams.get('q') === order.hashedId);

    // Browser Back.
    await results.getByRole('link', { name: `#${order.id}` }).click();
    await s.page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    await s.page.goBack();
    await results.waitFor();
    await expect.poll(() => searchbox().inputValue()).toBe(order.hashedId);

    // The page's own link: a step back in history, not a new entry.
    await results.getByRole('link', { name: `#${order.id}` }).click();
    await s.page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    const entries = await s.page.evaluate(() => history.length);
    await s.page.getByRole('link', { name: 'Back to the board' }).click();
    await results.waitFor();
    await expect.poll(() => searchbox().inputValue()).toBe(order.hashedId);
    expect(new URL(s.page.url()).searchParams.get('q')).toBe(order.hashedId);
    await expect(s.page.evaluate(() => history.length)).resolves.toBe(entries);
    // Forward goes to the order again: the link went back, it did not push the board anew.
    await s.page.goForward();
    await s.page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    expect(s.browser.problems).toEqual([]);
  });

  it('keeps the tab and the status filter too, and the menu\'s "Orders" starts afresh', async () => {
    await s.page.goto(`${s.server.url}/orders`);
    await searchbox().waitFor();
    await s.page.getByRole('tab', { name: 'All orders' }).click();
    await s.page.getByRole('combobox', { name: 'Status' }).click();
    await s.page.getByRole('option', { name: 'New', exact: true }).click();
    const all = s.page.getByRole('table', { name: 'All orders' });
    await all.waitFor();
    await s.page.waitForURL(
      (u) => u.searchParams.get('view') === 'all' && u.searchParams.get('status') === 'ORDERINIT',
    );
    await all.getByRole('link').first().click();
    await s.page.getByRole('heading', { name: /^Order #\d+$/ }).waitFor();
    await s.page.goBack();
    await all.waitFor();
    await expect(s.page.getByRole('tab', { name: 'All orders' }).getAttribute('aria-selected')).resolves.toBe('true');
    await expect.poll(() => s.page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('New');

    await searchbox().fill('something');
    await s.page.waitForURL((u) => u.searchParams.get('q') === 'something');
    await s.page.getByRole('link', { name: 'Orders' }).click();
    await s.page.waitForURL((u) => u.pathname === '/orders' && u.search === '');
    // The address changes first; the box follows at the next render.
    await expect.poll(() => searchbox().inputValue()).toBe('');
    await expect(s.page.getByRole('tab', { name: 'Board' }).getAttribute('aria-selected')).resolves.toBe('true');
    expect(s.browser.problems).toEqual([]);
  });

  it('opened from elsewhere (an address typed or reloaded), its "Back to the board" opens the board', async () => {
    const order = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 30,
    });
    await s.page.goto(`${s.server.url}/orders/${order.id}`);
    await s.page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    await s.page.getByRole('link', { name: 'Back to the board' }).click();
    await s.page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    expect(new URL(s.page.url()).pathname).toBe('/orders');
    expect(s.browser.problems).toEqual([]);
  });

  it('says an order is not found with a way back to the board, for an address naming no order and for one not there', async () => {
    for (const path of ['/orders/abc', '/orders/987654']) {
      await s.page.goto(`${s.server.url}${path}`);
      await s.page.getByRole('alert').getByText('Order not found').waitFor();
      await s.page.getByRole('link', { name: 'Back to the board' }).click();
      await s.page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
      expect(new URL(s.page.url()).pathname).toBe('/orders');
    }
    expect(s.browser.problems).toEqual([]);
  });
});
