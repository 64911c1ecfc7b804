import { describe, expect, it } from 'vitest';
import { unlabelledControls } from './support/a11y';
import { logIn, screenshot } from './support/browser';
import { scenario } from './support/scenario';

/** A superadmin issues a partner's branch key, sees it once, and revokes it: the partner's next call is refused. */
const s = scenario();

describe('a superadmin', () => {
  it('creates a branch key, sees it once, the key works, revokes it, and the next partner call gets 401', async () => {
    await logIn(s.page, s.server.url, s.server.logins.superadmin);
    await s.page.getByRole('link', { name: 'API keys' }).click();
    await s.page.getByRole('button', { name: 'New key' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('button', { name: 'Close' }).waitFor();
    expect(await unlabelledControls(s.page)).toEqual([]);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Acme partner app');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await s.page.getByRole('option', { name: /^Branch:/ }).click();
    await dialog.getByRole('combobox', { name: 'Branch' }).click();
    await s.page.getByRole('option', { name: 'Demo Branch' }).click();
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const raw = (await dialog.getByTestId('raw-key').innerText()).trim();
    expect(raw).toMatch(/^sk_branch_[A-Za-z0-9]{32}$/);
    await screenshot(s.page, 'api-key-created');
    // Shown once: a stray Escape must not lose it, and no × offers to.
    await s.page.keyboard.press('Escape');
    await expect(dialog.getByTestId('raw-key').isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('button', { name: 'Close' }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Copy key' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();

    expect((await s.server.partner('GET', '/offers?limit=2', raw)).status).toBe(200);

    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    const mine = s.page.getByRole('table', { name: 'Keys you created' });
    const row = mine.locator('tr', { hasText: 'Acme partner app' });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(raw.slice(0, 20));
    // Shown once: the s.page holds the prefix only, now and after a reload.
    await s.page.reload();
    await row.waitFor();
    expect(await s.page.content()).not.toContain(raw);
    await screenshot(s.page, 'api-keys');

    await row.getByRole('button', { name: 'Revoke Acme partner app' }).click();
    await s.page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked').waitFor();

    const refused = await s.server.partner('GET', '/offers', raw);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Invalid or revoked API key');
    expect(s.browser.problems).toEqual([]);
  });
  it('rolls a key: a refused time shows once, under its field; the new key stays until "I have stored it"', async () => {
    const row = s.page.getByRole('table', { name: 'Branch keys' }).locator('tr', { hasText: 'Demo branch key' });
    await row.getByRole('button', { name: 'Roll Demo branch key' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Roll “Demo branch key”' });
    const until = dialog.getByLabel('Old key works until');
    await until.fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 16));
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await dialog.getByText('Must be at most 7 days from now').waitFor();
    await expect(s.page.locator('.mantine-Notification-root', { hasText: '7 days' }).count()).resolves.toBe(0);

    await until.fill('');
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await expect(dialog.getByTestId('raw-key').innerText()).resolves.toMatch(/^sk_branch_/);
    await s.page.keyboard.press('Escape');
    await expect(dialog.getByTestId('raw-key').isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('button', { name: 'Close' }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(s.browser.problems).toEqual([]);
  });
});
