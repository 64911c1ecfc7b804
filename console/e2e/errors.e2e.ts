import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openBrowser, screenshot, type Browser } from './support/browser';
import { startDemoServer, type DemoServer } from './support/server';

/** Failures where they belong: a lost connection and a 429 as notices saying what to do, a refused token back to login. */
let server: DemoServer;
let browser: Browser & { problems: string[] };
let page: Page;

beforeAll(async () => {
  // Four login attempts per 15 minutes from one address: the fifth is refused with 429.
  server = await startDemoServer({ LOGIN_ATTEMPTS_PER_15_MINUTES: '4' });
  browser = await openBrowser();
  page = await browser.page();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const notice = (title: string) => page.locator('.mantine-Notification-root', { hasText: title });

describe('errors in the console', () => {
  it('says what to do when the connection is lost, and saves nothing', async () => {
    await logIn(page, server.url, server.logins.admin);
    await page.getByRole('link', { name: 'Offers and rates' }).click();
    const rate = page.getByRole('textbox', { name: 'Rate of USD → EUR' });
    await rate.waitFor();
    await page.route('**/api/v1/admin/offers/*', (route) => route.abort('internetdisconnected'));
    await rate.fill('0.99');
    await rate.press('Enter');
    await notice('Connection lost').waitFor();
    await expect(notice('Connection lost').innerText()).resolves.toContain('Check the network connection');
    await screenshot(page, 'connection-lost');
    await page.unroute('**/api/v1/admin/offers/*');
    const offers = await server.partner('GET', '/offers?limit=100', server.keys.branch);
    expect(offers.body.data.map((o: { rate: number }) => o.rate)).not.toContain(0.99);
  });

  it('returns to the login page when the API refuses the token, and says why', async () => {
    await page.evaluate(() => sessionStorage.setItem('pxs.token', 'expired-or-forged'));
    await page.goto(`${server.url}/staff`);
    await page.getByText('Your session expired or was ended').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await screenshot(page, 'session-ended');
  });

  it('shows a 429 as a notice with how long to wait', async () => {
    await page.goto(`${server.url}/login`);
    for (let attempt = 0; attempt < 6 && !(await notice('Too many requests').isVisible()); attempt++) {
      await page.getByRole('textbox', { name: 'Email' }).fill(server.logins.operator.email);
      await page.getByRole('textbox', { name: 'Password' }).fill('not-the-password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').or(notice('Too many requests')).first().waitFor();
    }
    await expect(notice('Too many requests').innerText()).resolves.toMatch(/Wait \d+ seconds, then try again/);
    await screenshot(page, 'rate-limited');
    // The one failure the browser reported is the connection this file cut on purpose.
    expect(browser.problems.filter((p) => !p.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
  });
});
