import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { demoCatalog } from './support/demo';
import { scenario } from './support/scenario';

/** A branch admin changes a rate at the counter's request: partners' estimates follow at once; a wrong rate changes nothing. */
let catalog: Awaited<ReturnType<typeof demoCatalog>>;
const s = scenario({}, async ({ server }) => {
  catalog = await demoCatalog(server);
});

const estimate = async () => {
  const res = await s.server.partner('POST', '/public/estimate', s.server.keys.public, {
    exchangeId: catalog.central,
    sourceCurrencyId: catalog.currency('USD'),
    destCurrencyId: catalog.currency('EUR'),
    amount: 100,
  });
  expect(res.status).toBe(200);
  return res.body;
};
const rateInput = () => s.page.getByRole('textbox', { name: 'Rate of USD → EUR' });
const row = () => s.page.locator('tr', { has: rateInput() });

describe('a branch admin', () => {
  it('edits a rate inline and the partner estimate changes at once', async () => {
    const before = JSON.stringify(await estimate());
    expect(before).toContain('92.15');

    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.getByRole('link', { name: 'Offers and rates' }).click();
    await rateInput().waitFor();
    await expect(rateInput().inputValue()).resolves.toBe('0.9215');
    await rateInput().fill('0.9530');
    await rateInput().press('Enter');
    await s.page.getByText('USD → EUR: saved').waitFor();
    await screenshot(s.page, 'offers');

    const after = JSON.stringify(await estimate());
    expect(after).toContain('95.3');
    expect(after).not.toContain('92.15');
    await expect(rateInput().inputValue()).resolves.toBe('0.953');
  });

  it("sees the API's message next to an invalid rate, and nothing changes", async () => {
    const before = JSON.stringify(await estimate());
    await rateInput().fill('-1');
    await row().getByRole('button', { name: 'Save' }).click();
    const error = row().locator('.mantine-InputWrapper-error, [class*="error"]').first();
    await error.waitFor();
    const message = await error.innerText();
    // The API's sentence, without the API's name for the field it stands under.
    expect(message).toMatch(/^Must be a decimal number such as 0\.95/);
    await expect(rateInput().getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(s.page, 'offers-invalid-rate');

    await rateInput().fill('0');
    await rateInput().press('Enter');
    await expect(row().locator('[class*="error"]').first().innerText()).resolves.toMatch(/^Must be greater than 0/);

    expect(JSON.stringify(await estimate())).toBe(before);
    await s.page.reload();
    await expect(rateInput().inputValue()).resolves.toBe('0.953');
    expect(s.browser.problems).toEqual([]);
  });

  it("sees the API's message when a new offer repeats a pair, though the form has no field it names; a new pair empties the form", async () => {
    const form = s.page.getByRole('form', { name: 'New offer' });
    await form.getByRole('combobox', { name: 'Client gives' }).fill('USD');
    await s.page.getByRole('option', { name: /^USD —/ }).click();
    await form.getByRole('combobox', { name: 'Client gets' }).fill('EUR');
    await s.page.getByRole('option', { name: /^EUR —/ }).click();
    await form.getByRole('textbox', { name: 'Rate' }).fill('0.9');
    await form.getByRole('textbox', { name: 'Maximum' }).fill('1000');
    await form.getByRole('button', { name: 'Add' }).click();
    const notice = s.page.locator('.mantine-Notification-root', {
      hasText: 'already has an offer for this currency pair',
    });
    await notice.waitFor();
    await screenshot(s.page, 'offers-duplicate-pair');
    await expect(rateInput().inputValue()).resolves.toBe('0.953');

    // Another pair is taken, and the form is empty again: no currency it no longer holds is still shown.
    await form.getByRole('combobox', { name: 'Client gets' }).fill('JPY');
    await s.page.getByRole('option', { name: /^JPY —/ }).click();
    await form.getByRole('button', { name: 'Add' }).click();
    await s.page.getByRole('textbox', { name: 'Rate of USD → JPY' }).waitFor();
    for (const name of ['Client gives', 'Client gets']) {
      await expect.poll(() => form.getByRole('combobox', { name }).inputValue(), { timeout: 10_000 }).toBe('');
    }
    await expect(form.getByRole('textbox', { name: 'Rate' }).inputValue()).resolves.toBe('');
  });

  it('deactivates a payment method and partners can no longer name it in an order', async () => {
    await s.page.getByRole('link', { name: 'Payment methods' }).click();
    const sepa = s.page.locator('tr', { has: s.page.getByRole('textbox', { name: 'Name of SEPA transfer' }) });
    await sepa.waitFor();
    const id = Number(await sepa.getAttribute('data-payment-method-id'));
    const order = () =>
      s.server.partner('POST', '/orders', s.server.keys.branch, {
        cashbox: { id: catalog.central },
        currency1: { id: catalog.currency('USD') },
        currency2: { id: catalog.currency('EUR') },
        operationType: 'offer',
        clientAmount: 100,
        paymentMethodDest: { id },
      });
    expect((await order()).status).toBe(201);

    await sepa.getByRole('switch', { name: 'SEPA transfer active' }).click({ force: true });
    await s.page.getByText('SEPA transfer: saved').waitFor();
    await screenshot(s.page, 'payment-methods');
    const refused = await order();
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ paymentMethodDest: 'inactive' });
    expect(s.browser.problems).toEqual([]);
  });
  it('renames a payment method with Enter, and the row has nothing left to save', async () => {
    const cash = s.page.locator('tr', { has: s.page.getByRole('textbox', { name: 'Name of Cash at the desk' }) });
    const id = await cash.getAttribute('data-payment-method-id');
    const row = s.page.locator(`tr[data-payment-method-id="${id}"]`);
    await row.getByRole('textbox').first().fill('Cash at the counter');
    await row.getByRole('textbox').first().press('Enter');
    await s.page.getByText('Cash at the counter: saved').waitFor();
    await row.getByRole('textbox', { name: 'Name of Cash at the counter' }).waitFor();
    await expect(row.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
  });

  it('is asked before a rate moves more than twofold (a slipped decimal point), and may keep editing', async () => {
    await s.page.goto(`${s.server.url}/offers`);
    await rateInput().waitFor();
    await expect(rateInput().inputValue()).resolves.toBe('0.953');
    const before = JSON.stringify(await estimate());
    await rateInput().fill('0.000953');
    await rateInput().press('Enter');
    const dialog = s.page.getByRole('dialog', { name: 'Change the rate of USD → EUR?' });
    await dialog.waitFor();
    await expect(dialog.innerText()).resolves.toContain('From 0.953 to 0.000953: 1,000 times lower');
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Nothing was sent: partners still get the old rate.
    expect(JSON.stringify(await estimate())).toBe(before);
    await expect(rateInput().inputValue()).resolves.toBe('0.000953');

    await rateInput().fill('2.5');
    await rateInput().press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Save the new rate' }).click();
    await expect.poll(async () => JSON.stringify(await estimate())).toContain('"destAmount":250');
    expect(s.browser.problems).toEqual([]);
  });
  it('shows a very small rate in plain decimals, as the API takes it back', async () => {
    await s.page.getByRole('link', { name: 'Offers and rates' }).click();
    await expect.poll(() => rateInput().inputValue()).toBe('2.5');
    await rateInput().fill('0.0000002');
    await rateInput().press('Enter');
    // A move this far is asked first (the test before).
    const saved = s.page.waitForResponse(
      (r) => r.url().includes('/api/v1/admin/offers/') && r.request().method() === 'PATCH',
    );
    await s.page.getByRole('dialog').getByRole('button', { name: 'Save the new rate' }).click();
    expect((await saved).status()).toBe(200);
    await expect.poll(() => rateInput().inputValue()).toBe('0.0000002');
    await s.page.reload();
    await expect(rateInput().inputValue()).resolves.toBe('0.0000002');
    expect(s.browser.problems).toEqual([]);
  });
});
