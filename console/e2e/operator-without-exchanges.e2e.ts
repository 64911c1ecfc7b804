import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser';
import { sharedScenario } from './support/scenario';

/**
 * An operator may be left without exchanges (the API allows it: one moved between branches loses them), but then
 * sees only empty pages: the staff form warns as it is made, and the operator's Home says whom to ask.
 */
const s = sharedScenario();
const lonely = { email: 'no-exchange@demo.local', password: 'no-exchange-pass-123' };
const WARNING = 'An operator without exchanges sees no orders';

describe('an operator without exchanges', () => {
  it('is warned about in the staff form, and can still be created', async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.getByRole('link', { name: 'Staff' }).click();
    await s.page.getByRole('button', { name: 'New staff user' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'New staff user' });
    await dialog.getByRole('textbox', { name: 'Email' }).fill(lonely.email);
    await dialog.getByRole('textbox', { name: 'Password' }).fill(lonely.password);
    const warning = dialog.getByText(WARNING);
    await warning.waitFor();

    const exchanges = dialog.getByRole('combobox', { name: 'Exchanges served' });
    await exchanges.click();
    await s.page.getByRole('option', { name: 'Central Exchange' }).click();
    await warning.waitFor({ state: 'detached' });
    await exchanges.press('Backspace');
    await warning.waitFor();

    // Only for an operator: an admin serves every exchange of its branch.
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await s.page.getByRole('option', { name: 'admin', exact: true }).click();
    await expect(warning.count()).resolves.toBe(0);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await s.page.getByRole('option', { name: 'operator', exact: true }).click();
    await warning.waitFor();

    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await s.page.getByRole('table', { name: 'Staff' }).getByText(lonely.email).waitFor();
    expect(s.browser.problems).toEqual([]);
  });

  it('is told on its Home page to ask an admin; an operator with exchanges and an admin are not', async () => {
    await expect(s.page.getByText('You serve no exchange yet').count()).resolves.toBe(0);

    const page = await s.browser.page();
    await logIn(page, s.server.url, lonely);
    const notice = page.locator('[data-notice="no-exchanges"]');
    await notice.waitFor();
    await expect(notice.innerText()).resolves.toMatch(/Ask an admin/);

    const served = await s.browser.page();
    await logIn(served, s.server.url, s.server.logins.operator);
    await served.getByRole('heading', { name: /Today's orders/ }).waitFor();
    await expect(served.locator('[data-notice="no-exchanges"]').count()).resolves.toBe(0);
    expect(s.browser.problems).toEqual([]);
  });
});

describe('payment methods', () => {
  it("show their kind in words, not the API's value", async () => {
    await s.page.goto(`${s.server.url}/payment-methods`);
    const kind = s.page.getByRole('combobox', { name: 'Kind of SEPA transfer' });
    await expect(kind.inputValue()).resolves.toBe('Bank transfer');
    await s.page.getByRole('combobox', { name: 'Kind', exact: true }).click();
    await s.page.getByRole('option', { name: 'Bank transfer' }).waitFor();
    await expect(s.page.getByRole('option', { name: 'bank_transfer' }).count()).resolves.toBe(0);
    await expect(s.page.getByRole('table', { name: 'Payment methods' }).innerText()).resolves.not.toContain(
      'bank_transfer',
    );
    expect(s.browser.problems).toEqual([]);
  });
});
