import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser';
import { sharedScenario } from './support/scenario';

/**
 * A branch's admin sees its branch's keys and may revoke any of them, but rolls only its own personal keys: the
 * console offers Roll only where the API would agree (a roll hands over a new raw key).
 */
const s = sharedScenario();

describe('an admin', () => {
  it('is offered Revoke on every key of its branch, and Roll only on its own personal key', async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.getByRole('link', { name: 'API keys' }).click();
    const branch = s.page.getByRole('table', { name: 'Branch keys' });
    for (const name of ['Demo branch key', 'Demo public key', 'Demo operator personal key']) {
      const row = branch.locator('tr', { hasText: name });
      await row.waitFor();
      await expect(row.getByRole('button', { name: `Revoke ${name}` }).count()).resolves.toBe(1);
      await expect(row.getByRole('button', { name: `Roll ${name}` }).count()).resolves.toBe(0);
    }

    await s.page.getByRole('button', { name: 'New key' }).click();
    const create = s.page.getByRole('dialog', { name: 'New API key' });
    await create.getByRole('textbox', { name: 'Name' }).fill('Admin till');
    await create.getByRole('button', { name: 'Create key' }).click();
    await expect(create.getByTestId('raw-key').innerText()).resolves.toMatch(/^sk_personal_/);
    await create.getByRole('button', { name: 'I have stored it' }).click();

    const mine = s.page.getByRole('table', { name: 'Keys you created' }).locator('tr', { hasText: 'Admin till' });
    await mine.getByRole('button', { name: 'Roll Admin till' }).waitFor();
    const own = branch.locator('tr', { hasText: 'Admin till' });
    await own.getByRole('button', { name: 'Roll Admin till' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Roll “Admin till”' });
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await expect(dialog.getByTestId('raw-key').innerText()).resolves.toMatch(/^sk_personal_/);
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(s.browser.problems).toEqual([]);
  });
});
