import { describe, expect, it } from 'vitest';
import { cutBadges } from './support/a11y';
import { logIn, screenshot } from './support/browser';
import { scenario } from './support/scenario';

/** Who the console thinks is logged in: the next user after a log out, and a role changed while logged in. */
const s = scenario();

async function staffToken(login: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${s.server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login),
  });
  return (await res.json()).accessToken;
}

const navLinks = () => s.page.getByRole('navigation', { name: 'Pages' }).getByRole('link').allInnerTexts();

describe('the session', () => {
  it("starts the next user at Home after a log out, not on the last user's page", async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.getByRole('link', { name: 'Staff' }).click();
    await s.page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    await s.page.getByRole('button', { name: 'Log out' }).click();
    await s.page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await s.page.evaluate(() => sessionStorage.getItem('pxs.token'))).toBeNull();
    await logIn(s.page, s.server.url, s.server.logins.operator);
    expect(new URL(s.page.url()).pathname).toBe('/');
    await s.page.getByRole('button', { name: 'Log out' }).click();
    await s.page.getByRole('button', { name: 'Log in' }).waitFor();
  });

  it('logs out everywhere: the server refuses the token the tab held, and the user logs in again at once', async () => {
    await logIn(s.page, s.server.url, s.server.logins.operator);
    const token = await s.page.evaluate(() => sessionStorage.getItem('pxs.token'));
    const elsewhere = await staffToken(s.server.logins.operator);
    const me = (t: string | null) =>
      fetch(`${s.server.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.status);
    expect(await me(token)).toBe(200);
    await s.page.getByRole('button', { name: 'Log out' }).click();
    await s.page.getByRole('button', { name: 'Log in' }).waitFor();
    await expect.poll(() => me(token), { timeout: 10_000 }).toBe(401);
    expect(await me(elsewhere)).toBe(401);
    await logIn(s.page, s.server.url, s.server.logins.operator);
    expect(await me(await s.page.evaluate(() => sessionStorage.getItem('pxs.token')))).toBe(200);
    await s.page.getByRole('button', { name: 'Log out' }).click();
    await s.page.getByRole('button', { name: 'Log in' }).waitFor();
  });

  it('follows a role changed while the user is logged in, from the first refusal', async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    expect(await navLinks()).toContain('Staff');
    const auth = {
      authorization: `Bearer ${await staffToken(s.server.logins.superadmin)}`,
      'content-type': 'application/json',
    };
    const staff = await (await fetch(`${s.server.url}/api/v1/admin/staff?limit=100`, { headers: auth })).json();
    const admin = staff.data.find((u: { email: string }) => u.email === s.server.logins.admin.email);
    const demoted = await fetch(`${s.server.url}/api/v1/admin/staff/${admin.id}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({ role: 'operator' }),
    });
    expect(demoted.status, await demoted.text()).toBe(200);
    // The page the menu still offers is refused; the console asks who it is again, and the menu follows.
    await s.page.getByRole('link', { name: 'Staff' }).click();
    await expect.poll(navLinks, { timeout: 10_000 }).not.toContain('Staff');
    await expect.poll(() => s.page.locator('header').innerText(), { timeout: 10_000 }).toMatch(/operator/i);
    await screenshot(s.page, 'role-changed');
    expect(s.browser.problems.filter((p) => !p.includes('403'))).toEqual([]);
  });

  it('keeps the role and Log out whole on a phone', async () => {
    const phone = await s.browser.page({ width: 390, height: 844 });
    await logIn(phone, s.server.url, s.server.logins.superadmin);
    const logOut = await phone.getByRole('button', { name: 'Log out' }).boundingBox();
    expect(logOut!.x + logOut!.width).toBeLessThanOrEqual(390);
    const logOutText = phone.getByRole('button', { name: 'Log out' }).locator('.mantine-Button-label');
    await expect(logOutText.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).resolves.toBe(true);
    expect(await cutBadges(phone)).toEqual([]);
    await screenshot(phone, 'header-phone');
  });
});
