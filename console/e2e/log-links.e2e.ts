import type { Locator } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { sidewaysScroll } from './support/layout';
import { startReceiver } from './support/receiver';
import { scenario, type Scenario } from './support/scenario';

/**
 * The webhook delivery log and the audit log link to what each line is about, so staff asking "why did the partner
 * get this?" or "who changed this rate?" click through instead of copying ids.
 */
interface World {
  orderId: number;
  offerId: number;
  exchange: { id: number; name: string };
  hookId: string;
}
let w: World;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
const s = scenario({}, async (sc) => {
  w = await setUp(sc);
});
afterAll(async () => {
  await receiver?.close();
});

/** The admin's own calls, as the console makes them. */
async function staffApi(sc: Scenario) {
  const json = { 'content-type': 'application/json' };
  const login = await (
    await fetch(`${sc.server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(sc.server.logins.admin),
    })
  ).json();
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sc.server.url}/api/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${login.accessToken}`, ...(body === undefined ? {} : json) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}

/**
 * A partner's webhook, an order (order.created), and an admin who changes a rate (offer.updated, offer.update) and
 * moves the order (order.move). The rate is at the admin's second exchange: the offers page opens on the first by
 * itself, so landing on the second proves the link chose it.
 */
async function setUp(sc: Scenario): Promise<World> {
  receiver = await startReceiver(200);
  const hook = await sc.server.partner('POST', '/webhooks', sc.server.keys.branch, {
    url: receiver.url,
    events: ['order.created', 'offer.updated'],
  });
  expect(hook.status).toBe(201);
  const catalog = await demoCatalog(sc.server);
  const order = await partnerOrder(sc.server, {
    cashbox: catalog.central,
    from: catalog.currency('USD'),
    to: catalog.currency('EUR'),
    amount: 90,
  });
  const staff = await staffApi(sc);
  const exchange = (await staff('GET', '/lookups')).exchanges[1] as { id: number; name: string };
  const offer = (
    await staff('GET', `/offers?limit=1&filter=${encodeURIComponent(JSON.stringify({ exchangeId: exchange.id }))}`)
  ).data[0];
  await staff('PATCH', `/offers/${offer.id}`, { rate: '0.8765' });
  await staff('POST', `/orders/${order.id}/status`, { status: 'CLIENTPAYMENTWAIT' });
  return { orderId: order.id, offerId: offer.id, exchange, hookId: hook.body.id };
}

/** The offers page shows the exchange the link named. */
async function onOffersOf(exchange: World['exchange']) {
  await s.page.waitForURL((u) => u.pathname === '/offers' && u.searchParams.get('exchange') === String(exchange.id));
  await expect.poll(() => s.page.getByRole('combobox', { name: 'Exchange' }).inputValue()).toBe(exchange.name);
  await s.page.getByRole('table', { name: 'Offers' }).waitFor();
}

/** An ordinary anchor with a real address, so a middle click or "open in new tab" works like any link. */
async function hrefOf(link: Locator) {
  await link.waitFor();
  return link.getAttribute('href');
}

describe('links from the logs', () => {
  it("a delivery links to its order; an offer delivery, whose payload names the exchange, to that exchange's offers", async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.goto(`${s.server.url}/webhooks/${w.hookId}`);
    const log = s.page.getByRole('table', { name: 'Deliveries' });
    const order = log.getByRole('link', { name: `order #${w.orderId}`, exact: true });
    await expect(hrefOf(order)).resolves.toBe(`/orders/${w.orderId}`);
    // A row of the log carries the offer's id but not its exchange: no link rather than a guessed one.
    await log.getByRole('cell', { name: `offer #${w.offerId}`, exact: true }).waitFor();
    await expect(log.getByRole('link', { name: `offer #${w.offerId}` }).count()).resolves.toBe(0);
    expect(await sidewaysScroll(s.page)).toEqual([]);
    await screenshot(s.page, 'webhook-log-links');

    await order.click();
    await s.page.getByRole('heading', { name: `Order #${w.orderId}`, level: 1 }).waitFor();
    await s.page.goBack();
    await log.getByRole('button', { name: /^Delivery offer\.updated/ }).click();
    const drawer = s.page.getByRole('dialog', { name: 'Delivery' });
    const offer = drawer.getByRole('link', { name: `offer #${w.offerId}`, exact: true });
    await expect(hrefOf(offer)).resolves.toBe(`/offers?exchange=${w.exchange.id}`);
    await offer.click();
    await onOffersOf(w.exchange);
    expect(s.browser.problems).toEqual([]);
  });

  it('an audit row links to the order it moved and to the exchange of the offer it changed', async () => {
    await s.page.goto(`${s.server.url}/audit`);
    const audit = s.page.getByRole('table', { name: 'Audit log' });
    const moved = audit.getByRole('row').filter({ hasText: 'order.move' });
    const order = moved.getByRole('link', { name: `order ${w.orderId}`, exact: true });
    await expect(hrefOf(order)).resolves.toBe(`/orders/${w.orderId}`);
    expect(await sidewaysScroll(s.page)).toEqual([]);
    await screenshot(s.page, 'audit-links');
    await order.click();
    await s.page.getByRole('heading', { name: `Order #${w.orderId}`, level: 1 }).waitFor();

    await s.page.goBack();
    const changed = audit.getByRole('row').filter({ hasText: 'offer.update' });
    const offer = changed.getByRole('link', { name: `offer ${w.offerId}`, exact: true });
    await expect(hrefOf(offer)).resolves.toBe(`/offers?exchange=${w.exchange.id}`);
    await offer.click();
    await onOffersOf(w.exchange);
    expect(s.browser.problems).toEqual([]);
  });
});
