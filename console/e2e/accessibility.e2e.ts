import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, contrastRatio } from './support/axe';
import { logIn, screenshot } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { scenario } from './support/scenario';

/**
 * axe-core (WCAG 2.1 A/AA) on every page of the console, as each role sees it and on a phone, and a shift at the
 * counter done with the keyboard alone: office staff read these screens all day, some with a screen reader.
 */
let orderId: number;
let webhookId: string;
const s = scenario({}, async ({ server }) => {
  const catalog = await demoCatalog(server);
  orderId = (
    await partnerOrder(server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 250,
    })
  ).id;
  webhookId = (
    await server.partner('POST', '/webhooks', server.keys.branch, {
      url: 'http://127.0.0.1:8/hooks',
      events: ['order.created'],
    })
  ).body.id;
});

type Visit = [path: string, heading: string | RegExp];

async function checkPages(page: Page, visits: Visit[]) {
  const found: string[] = [];
  for (const [path, heading] of visits) {
    await page.goto(`${s.server.url}${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Loading"]').length === 0);
    found.push(...(await axeViolations(page)).map((v) => `${path}: ${v}`));
  }
  return found;
}

const SUPERADMIN: () => Visit[] = () => [
  ['/', 'Home'],
  ['/orders', 'Orders'],
  ['/orders?view=all', 'Orders'],
  [`/orders/${orderId}`, `Order #${orderId}`],
  ['/orders/new', 'New counter order'],
  ['/cash', 'Cash'],
  ['/reports', 'Reports'],
  ['/offers', 'Offers and rates'],
  ['/exchanges', 'Exchanges'],
  ['/exchanges/1', 'Central Exchange'],
  ['/payment-methods', 'Payment methods'],
  ['/clients', 'Clients'],
  ['/staff', 'Staff'],
  ['/currencies', 'Currencies'],
  ['/branches', 'Branches'],
  ['/api-keys', 'API keys'],
  ['/webhooks', 'Webhooks'],
  [`/webhooks/${webhookId}`, 'Webhook'],
  ['/audit', 'Audit log'],
  ['/no-such-page', 'Page not found'],
];

describe('axe-core finds no serious or critical WCAG 2.1 A/AA violation', () => {
  it('on the login page and every page of a superadmin', async () => {
    await s.page.goto(`${s.server.url}/login`);
    await s.page.getByRole('heading', { name: 'Staff console' }).waitFor();
    expect(await axeViolations(s.page), '/login').toEqual([]);
    await logIn(s.page, s.server.url, s.server.logins.superadmin);
    expect(await checkPages(s.page, SUPERADMIN())).toEqual([]);
  }, 180_000);

  it('on every page of an admin, on a phone', async () => {
    const page = await s.browser.page({ width: 390, height: 844 });
    await logIn(page, s.server.url, s.server.logins.admin);
    const admin = SUPERADMIN().filter(([path]) => path !== '/currencies' && path !== '/branches');
    expect(await checkPages(page, admin)).toEqual([]);
    // The navigation drawer, open.
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Orders' }).waitFor();
    expect(await axeViolations(page), 'navigation drawer').toEqual([]);
  }, 180_000);

  it('on every page of an operator, and the page it may not see', async () => {
    const page = await s.browser.page({ width: 1280, height: 800 });
    await logIn(page, s.server.url, s.server.logins.operator);
    expect(
      await checkPages(page, [
        ['/', 'Home'],
        ['/orders', 'Orders'],
        [`/orders/${orderId}`, `Order #${orderId}`],
        ['/orders/new', 'New counter order'],
        ['/cash', 'Cash'],
        ['/reports', 'Reports'],
        ['/clients', 'Clients'],
        ['/api-keys', 'API keys'],
        ['/webhooks', 'Webhooks'],
        ['/offers', 'No access'],
      ]),
    ).toEqual([]);
    expect(s.browser.problems).toEqual([]);
  }, 120_000);
});

/** Presses Tab (or Shift+Tab) until `target` has the focus, as someone would, up to `limit` times. */
async function tabTo(page: Page, target: string, { back = false, limit = 60 } = {}): Promise<number> {
  for (let presses = 1; presses <= limit; presses += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, target)) return presses;
  }
  throw new Error(`${target} not reached in ${limit} presses of Tab; focus is on ${await focused(page)}`);
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`
      : 'nothing';
  });

describe('with the keyboard alone', () => {
  it('logs in, skips to the content, opens an order and moves it twice, focus always somewhere sensible', async () => {
    const catalog = await demoCatalog(s.server);
    const order = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('EUR'),
      to: catalog.currency('USD'),
      amount: 40,
    });
    const page = await s.browser.page({ width: 1280, height: 800 });
    await page.goto(`${s.server.url}/login`);
    await page.getByRole('heading', { name: 'Staff console' }).waitFor();
    await page.keyboard.type(s.server.logins.operator.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(s.server.logins.operator.password);
    // The show-password toggle is the next stop, and shows what was typed.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^button/);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(
      'Show password',
    );
    await page.keyboard.press('Space');
    await expect(page.getByRole('textbox', { name: 'Password' }).inputValue()).resolves.toBe(
      s.server.logins.operator.password,
    );
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    // The first stop is the skip link; on to the board through the navigation.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to main content');
    await tabTo(page, 'nav a[href="/orders"]');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.locator(`[data-order-id="${order.id}"]`).first().waitFor();
    // Back to the skip link, which passes the header and the navigation at once; then to the order's card, and in.
    await tabTo(page, '.pxs-skip-link', { back: true });
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.tagName)).resolves.toBe('MAIN');
    const stops = await tabTo(page, `a[data-order-id="${order.id}"]`);
    expect(stops).toBeLessThan(12);
    const name = await page.evaluate(() => document.activeElement?.textContent ?? '');
    // The card's name is what it shows: the order, the amounts and the exchange.
    expect(name).toMatch(new RegExp(`^Order #${order.id}`));
    expect(name).toContain('40 EUR →');
    expect(name).toContain('Central Exchange');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Order #${order.id}`, level: 1 }).waitFor();
    await expect.poll(() => focused(page)).toBe(`h1 "Order #${order.id}"`);

    // Each move: Tab to the button, Enter; focus goes to the status it moved to, never to <body>.
    for (const [button, status] of [
      ['Await client payment', 'Waiting for client payment'],
      ['Client paid', 'Waiting for exchange payment'],
    ] as const) {
      await tabTo(page, `button[data-move]:not([data-move="CANCEL"])`);
      expect(await focused(page)).toContain(button);
      // The focus ring reads against the white page (WCAG 1.4.11: 3:1).
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return { width: parseFloat(style.outlineWidth), style: style.outlineStyle, color: style.outlineColor };
      });
      expect(ring.width).toBeGreaterThanOrEqual(2);
      expect(ring.style).not.toBe('none');
      expect(contrastRatio(ring.color, 'rgb(255, 255, 255)')).toBeGreaterThanOrEqual(3);
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe(`Status: ${status}`);
    }
    await screenshot(page, 'keyboard-order-moved');
    const seen = await s.server.partner('GET', `/orders/${order.id}`, s.server.keys.branch);
    expect(seen.body.status).toBe('EXCHANGEPAYMENTWAIT');
    expect(s.browser.problems).toEqual([]);
  }, 120_000);
});
