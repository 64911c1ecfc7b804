import { describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { logIn, screenshot } from './support/browser';
import { sharedScenario } from './support/scenario';
import { staffCall, staffToken } from './support/staff-api';

/**
 * An operator at the counter: a client walks in, the order is priced by the server as it is typed, created with a
 * new client, printed, and on the board. Its own client (a unique email) and order, on the shared demo.
 */
const s = sharedScenario();

const receiptText = () => s.page.frameLocator('iframe[data-print-frame]').locator('body').innerText();

describe('a counter order', () => {
  it('is created by an operator for a new client at the estimate shown, printed, and on the board', async () => {
    const { page } = s;
    await logIn(page, s.server.url, s.server.logins.operator);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('link', { name: 'New counter order' }).click();
    await page.getByRole('heading', { name: 'New counter order', level: 1 }).waitFor();
    // The operator's only exchange is already picked.
    await expect(page.getByRole('combobox', { name: 'Exchange' }).inputValue()).resolves.toBe('Central Exchange');

    await page.getByRole('combobox', { name: 'Client gives' }).click();
    await page.getByRole('option', { name: /^USD — / }).click();
    await page.getByRole('combobox', { name: 'Client receives' }).click();
    await page.getByRole('option', { name: /^EUR — / }).click();
    await page.getByRole('textbox', { name: 'Amount the client gives' }).fill('123.45');
    const source = page.locator('[data-estimate-source]');
    const dest = page.locator('[data-estimate-dest]');
    await expect.poll(() => source.innerText()).toBe('123.45 USD');
    const estimated = (await dest.innerText()).trim();
    expect(estimated).toMatch(/^\d+\.\d{2} EUR$/);

    // The same pair as what the client receives: the server prices the other side.
    await page.getByText('What the client receives').click();
    await page.getByRole('textbox', { name: 'Amount the client receives' }).waitFor();
    await expect.poll(() => dest.innerText()).toBe('123.45 EUR');
    await page.getByText('What the client gives').click();
    await expect.poll(() => dest.innerText()).toBe(estimated);

    const email = `walk-in-${Date.now()}@example.com`;
    await page.getByText('New client', { exact: true }).click();
    await page.getByRole('textbox', { name: 'First name' }).fill('Walk');
    await page.getByRole('textbox', { name: 'Last name' }).fill('In');
    await page.getByRole('textbox', { name: 'Phone' }).fill('+351912000111');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'counter-order');

    await page.getByRole('button', { name: 'Create and print' }).click();
    await page.waitForURL(/\/orders\/\d+$/);
    const id = Number(/\/orders\/(\d+)$/.exec(page.url())![1]);
    await page.getByRole('heading', { name: `Order #${id}`, level: 1 }).waitFor();

    // The order the API keeps: the amounts estimated, placed at the counter by this operator, for the new client.
    const token = await staffToken(s.server.url, s.server.logins.operator);
    const order = (await staffCall(s.server.url, token, 'GET', `/admin/orders/${id}`)).body;
    expect(`${order.clientAmount} ${order.currency1.code}`).toBe('123.45 USD');
    expect(`${order.exchangeAmount} ${order.currency2.code}`).toBe(estimated);
    expect(order.source).toBe('counter');
    const client = (await staffCall(s.server.url, token, 'GET', `/admin/orders/${id}/client`)).body;
    expect(client.email).toBe(email);

    // Printed at once: the receipt has the exact amounts; Print receipt on the order's page prints it again.
    await expect.poll(receiptText).toContain('123.45 USD');
    expect(await receiptText()).toContain(estimated);
    await page.evaluate(() => document.querySelector('iframe[data-print-frame]')?.remove());
    await page.getByRole('button', { name: 'Print receipt' }).click();
    await expect.poll(receiptText).toContain(`#${id}`);
    expect(await receiptText()).toContain(estimated);

    // The receipt as paper shows it, for the documentation.
    const receipt = await staffCall(s.server.url, token, 'GET', `/admin/orders/${id}/receipt`);
    const paper = await s.browser.page({ width: 480, height: 340 });
    await paper.setContent(receipt.text);
    await screenshot(paper, 'receipt');
    await paper.close();

    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Orders' }).click();
    await page.locator(`[data-order-id="${id}"]`).first().waitFor();
    expect(s.browser.problems).toEqual([]);
  });

  it("shows the API's refusal of an amount under the amount, before the order is sent", async () => {
    const { page } = s;
    await page.goto(`${s.server.url}/orders/new`);
    await page.getByRole('heading', { name: 'New counter order', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Client gives' }).click();
    await page.getByRole('option', { name: /^USD — / }).click();
    await page.getByRole('combobox', { name: 'Client receives' }).click();
    await page.getByRole('option', { name: /^EUR — / }).click();
    // Below the offer's minimum (10 USD).
    await page.getByRole('textbox', { name: 'Amount the client gives' }).fill('5');
    await expect.poll(() => page.locator('[data-estimate-error]').innerText()).toMatch(/\S/);
    expect(await page.locator('[data-estimate-figures]').count()).toBe(0);
    expect(s.browser.problems).toEqual([]);
  });
});
