import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { scenario } from './support/scenario';

/** Failures where they belong: a lost connection and a 429 as notices saying what to do, a refused token back to login. */
// Four failed logins per 15 minutes on one account: the fifth attempt is refused with 429.
const s = scenario({ LOGIN_FAILURES_PER_ACCOUNT: '4' });

const notice = (title: string) => s.page.locator('.mantine-Notification-root', { hasText: title });

describe('errors in the console', () => {
  it('says what to do when the connection is lost, and saves nothing', async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.getByRole('link', { name: 'Offers and rates' }).click();
    const rate = s.page.getByRole('textbox', { name: 'Rate of USD → EUR' });
    await rate.waitFor();
    await s.page.route('**/api/v1/admin/offers/*', (route) => route.abort('internetdisconnected'));
    await rate.fill('0.99');
    await rate.press('Enter');
    await notice('Connection lost').waitFor();
    await expect(notice('Connection lost').innerText()).resolves.toContain('Check the network connection');
    await screenshot(s.page, 'connection-lost');
    await s.page.unroute('**/api/v1/admin/offers/*');
    const offers = await s.server.partner('GET', '/offers?limit=100', s.server.keys.branch);
    expect(offers.body.data.map((o: { rate: number }) => o.rate)).not.toContain(0.99);
  });

  it('refuses a move at once while the browser is offline, and does not make it when the connection returns', async () => {
    const catalog = await demoCatalog(s.server);
    const order = await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 40,
    });
    await s.page.goto(`${s.server.url}/orders/${order.id}`);
    await s.page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    await s.page.context().setOffline(true);
    try {
      await s.page.getByRole('button', { name: 'Await client payment', exact: true }).click();
      await notice('Connection lost').waitFor();
    } finally {
      await s.page.context().setOffline(false);
    }
    // A paused change would be sent now that the browser is online again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await s.server.partner('GET', `/orders/${order.id}`, s.server.keys.branch)).body.status).toBe('ORDERINIT');
  });

  it('returns to the login s.page when the API refuses the token, and says why', async () => {
    await s.page.evaluate(() => sessionStorage.setItem('pxs.token', 'expired-or-forged'));
    await s.page.goto(`${s.server.url}/staff`);
    await s.page.getByText('Your session expired or was ended').waitFor();
    expect(new URL(s.page.url()).pathname).toBe('/login');
    await screenshot(s.page, 'session-ended');
  });

  it('shows a 429 as a notice with how long to wait', async () => {
    await s.page.goto(`${s.server.url}/login`);
    for (let attempt = 0; attempt < 6 && !(await notice('Too many requests').isVisible()); attempt++) {
      await s.page.getByRole('textbox', { name: 'Email' }).fill(s.server.logins.operator.email);
      await s.page.getByRole('textbox', { name: 'Password' }).fill('not-the-password');
      await s.page.getByRole('button', { name: 'Log in' }).click();
      await s.page.getByRole('alert').or(notice('Too many requests')).first().waitFor();
    }
    await expect(notice('Too many requests').innerText()).resolves.toMatch(/Wait \d+ seconds, then try again/);
    await screenshot(s.page, 'rate-limited');
    // The one failure the s.browser reported is the connection this file cut on purpose.
    expect(s.browser.problems.filter((p) => !p.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
  });
});
