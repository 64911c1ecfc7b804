import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { demoCatalog } from './support/demo';
import { sharedScenario } from './support/scenario';

/**
 * Names and notes that partners and their clients typed may hold U+202E (right-to-left override): shown as they
 * are, it reverses what follows it on the line. The console isolates such text, so it reorders nothing around it.
 */
const s = sharedScenario();
const RLO = '\u202E';

/** How the page shows the element holding `text`: its tag and its computed unicode-bidi. */
const holderOf = (page: Page, text: string) =>
  page.evaluate((t) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent?.includes(t))
        return {
          tag: node.parentElement!.tagName.toLowerCase(),
          unicodeBidi: getComputedStyle(node.parentElement!).unicodeBidi,
        };
    }
    return null;
  }, text);

describe('partner-entered text', () => {
  it("shows an order's notes and its client's name isolated from the page around them", async () => {
    const catalog = await demoCatalog(s.server);
    const client = await s.server.partner('POST', '/clients', s.server.keys.branch, {
      firstName: 'Rui',
      lastName: 'Costa',
      email: 'rui.costa@example.com',
      phone: '+351911111111',
    });
    expect(client.status).toBe(201);
    const note = `Pays at the desk ${RLO}0001 ,evird`;
    const order = await s.server.partner('POST', '/orders', s.server.keys.branch, {
      cashbox: { id: catalog.central },
      currency1: { id: catalog.currency('USD') },
      currency2: { id: catalog.currency('EUR') },
      operationType: 'offer',
      clientAmount: 100,
      user: { id: client.body.id },
      clientComment: note,
      comment: `${RLO}gnp.exe`,
    });
    expect(order.status).toBe(201);

    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.goto(`${s.server.url}/orders/${order.body.id}`);
    await s.page.getByText("Client's note").waitFor();
    await s.page.getByText('Rui Costa').waitFor();
    await expect(holderOf(s.page, note)).resolves.toEqual({ tag: 'bdi', unicodeBidi: 'isolate' });
    await expect(holderOf(s.page, `${RLO}gnp.exe`)).resolves.toEqual({ tag: 'bdi', unicodeBidi: 'isolate' });
    await expect(holderOf(s.page, 'Costa')).resolves.toEqual({ tag: 'bdi', unicodeBidi: 'isolate' });
    await screenshot(s.page, 'order-partner-text');

    // In the search results the name is followed by the phone on the same line: it must not reverse it.
    await s.page.goto(`${s.server.url}/orders`);
    await s.page.getByRole('searchbox', { name: 'Search orders' }).fill('Costa');
    await s.page.getByRole('table', { name: 'Orders matching Costa' }).getByText('+351911111111').waitFor();
    await expect(holderOf(s.page, 'Rui Costa')).resolves.toEqual({ tag: 'bdi', unicodeBidi: 'isolate' });
    expect(s.browser.problems).toEqual([]);
  });

  it("shows a client's name with U+202E isolated in the clients list", async () => {
    // The API has refused such names since they were found (invalidCharacter), but older ones are still stored:
    // the list is given one as such a database would.
    const refused = await s.server.partner('POST', '/clients', s.server.keys.branch, {
      firstName: 'Eve',
      lastName: `${RLO}tsol`,
      email: 'eve@example.com',
      phone: '+351922222222',
    });
    expect(refused.status).toBe(400);
    const lastName = `Silva${RLO} 0001 ,thgir`;
    await s.page.route('**/api/v1/admin/clients?*', async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      for (const c of body.data) if (c.email === 'ana.silva@example.com') c.lastName = lastName;
      await route.fulfill({ response: res, json: body });
    });
    await s.page.goto(`${s.server.url}/clients`);
    await s.page.getByRole('cell', { name: 'ana.silva@example.com' }).waitFor();
    await expect(holderOf(s.page, lastName)).resolves.toEqual({ tag: 'bdi', unicodeBidi: 'isolate' });
    await expect(holderOf(s.page, 'Ana')).resolves.toEqual({ tag: 'bdi', unicodeBidi: 'isolate' });
    await screenshot(s.page, 'clients-partner-text');
    await s.page.unroute('**/api/v1/admin/clients?*');
    expect(s.browser.problems).toEqual([]);
  });
});
