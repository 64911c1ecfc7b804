import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openBrowser, screenshot, type Browser } from './support/browser';
import { demoCatalog } from './support/demo';
import { startDemoServer, type DemoServer } from './support/server';

/** A branch admin changes a rate at the counter's request: partners' estimates follow at once; a wrong rate changes nothing. */
let server: DemoServer;
let browser: Browser & { problems: string[] };
let page: Page;
let catalog: Awaited<ReturnType<typeof demoCatalog>>;

beforeAll(async () => {
  server = await startDemoServer();
  catalog = await demoCatalog(server);
  browser = await openBrowser();
  page = await browser.page();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const estimate = async () => {
  const res = await server.partner('POST', '/public/estimate', server.keys.public, {
    exchangeId: catalog.central, sourceCurrencyId: catalog.currency('USD'), destCurrencyId: catalog.currency('EUR'), amount: 100,
  });
  expect(res.status).toBe(200);
  return res.body;
};
const rateInput = () => page.getByRole('textbox', { name: 'Rate of USD → EUR' });
const row = () => page.locator('tr', { has: rateInput() });

describe('a branch admin', () => {
  it('edits a rate inline and the partner estimate changes at once', async () => {
    const before = JSON.stringify(await estimate());
    expect(before).toContain('92.15');

    await logIn(page, server.url, server.logins.admin);
    await page.getByRole('link', { name: 'Offers and rates' }).click();
    await rateInput().waitFor();
    await expect(rateInput().inputValue()).resolves.toBe('0.9215');
    await rateInput().fill('0.9530');
    await rateInput().press('Enter');
    await page.getByText('USD → EUR: saved').waitFor();
    await screenshot(page, 'offers');

    const after = JSON.stringify(await estimate());
    expect(after).toContain('95.3');
    expect(after).not.toContain('92.15');
    await expect(rateInput().inputValue()).resolves.toBe('0.953');
  });

  it('sees the API\'s message next to an invalid rate, and nothing changes', async () => {
    const before = JSON.stringify(await estimate());
    await rateInput().fill('-1');
    await row().getByRole('button', { name: 'Save' }).click();
    const error = row().locator('.mantine-InputWrapper-error, [class*="error"]').first();
    await error.waitFor();
    const message = await error.innerText();
    expect(message.toLowerCase()).toContain('rate');
    await expect(rateInput().getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'offers-invalid-rate');

    await rateInput().fill('0');
    await rateInput().press('Enter');
    await expect(row().locator('[class*="error"]').first().innerText()).resolves.toMatch(/rate/i);

    expect(JSON.stringify(await estimate())).toBe(before);
    await page.reload();
    await expect(rateInput().inputValue()).resolves.toBe('0.953');
    expect(browser.problems).toEqual([]);
  });
});
