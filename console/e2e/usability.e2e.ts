import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { sidewaysScroll } from './support/layout';
import { scenario } from './support/scenario';

/**
 * What a usability review found: a superadmin's exchanges of two branches named alike, the API keys' actions cut off
 * at 1280 px, the offers' Save cut off on a 768 px tablet, and form errors naming other fields by the API's names.
 */
const s = scenario();

async function staffToken(login: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${s.server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function adminApi(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.server.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Whole within the window's width as the page lies, without scrolling anything sideways to bring it there. */
async function withinWindow(page: Page, locator: Locator) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, String(locator)).not.toBeNull();
  expect(box!.x, String(locator)).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, String(locator)).toBeLessThanOrEqual(width);
}

describe('a superadmin, who sees every branch', () => {
  it('tells apart two exchanges named alike in different branches: each option names its branch', async () => {
    const token = await staffToken(s.server.logins.superadmin);
    const lookups = (await adminApi(token, 'GET', '/admin/lookups')) as { branches: { id: number; name: string }[] };
    const other = lookups.branches.find((b) => b.name === 'Other Branch')!;
    await adminApi(token, 'POST', '/admin/exchanges', { branchId: other.id, name: 'Central Exchange', city: 'Porto' });

    await logIn(s.page, s.server.url, s.server.logins.superadmin);
    await s.page.getByRole('link', { name: 'Offers and rates' }).click();
    await s.page.getByRole('combobox', { name: 'Exchange' }).click();
    const options = await s.page.getByRole('option', { name: /^Central Exchange/ }).allInnerTexts();
    expect(options).toHaveLength(2);
    expect(new Set(options).size).toBe(2);
    expect(options.some((o) => o.includes('Demo Branch'))).toBe(true);
    expect(options.some((o) => o.includes('Other Branch'))).toBe(true);
    await screenshot(s.page, 'offers-exchanges-of-two-branches');

    // The other branch's one: picked by its branch, it shows that exchange's (no) offers.
    await s.page.getByRole('option', { name: /^Central Exchange.*Other Branch/ }).click();
    await s.page.getByText('No offers at this exchange.').waitFor();
    await expect(s.page.getByRole('combobox', { name: 'Exchange' }).inputValue()).resolves.toContain('Other Branch');
    expect(s.browser.problems).toEqual([]);
  });
});

describe('the API keys page at 1280×800', () => {
  it('shows every action of a key without scrolling sideways', async () => {
    await s.page.setViewportSize({ width: 1280, height: 800 });
    await s.page.goto(`${s.server.url}/api-keys`);
    await s.page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    for (const name of ['Keys you created', 'Branch keys']) {
      const table = s.page.getByRole('table', { name });
      const first = table.locator('tbody tr').first();
      await first.waitFor();
      const buttons = first.getByRole('button');
      expect(await buttons.count(), name).toBeGreaterThan(0);
      for (const button of await buttons.all()) await withinWindow(s.page, button);
      const container = await table.evaluate((t) => {
        const box = t.closest('.mantine-Table-scrollContainer') ?? t.parentElement!;
        return { scroll: box.scrollWidth, client: box.clientWidth };
      });
      expect(container.scroll, name).toBeLessThanOrEqual(container.client + 1);
    }
    expect(await sidewaysScroll(s.page)).toEqual([]);
    await screenshot(s.page, 'api-keys-1280');
    expect(s.browser.problems).toEqual([]);
  });
});

describe('the offers on a 768×1024 tablet', () => {
  it("fits: every offer's inputs and Save within the window, nothing scrolls sideways; 1280 keeps the table", async () => {
    const page = await s.browser.page({ width: 768, height: 1024 });
    await logIn(page, s.server.url, s.server.logins.admin);
    await page.goto(`${s.server.url}/offers`);
    await page.getByRole('heading', { name: 'Offers and rates', level: 1 }).waitFor();
    const rate = page.getByRole('textbox', { name: 'Rate of USD → EUR' });
    await rate.waitFor();
    expect(await sidewaysScroll(page)).toEqual([]);
    const offers = page.locator('[data-offer-id]');
    expect(await offers.count()).toBeGreaterThan(0);
    for (const offer of await offers.all()) {
      await withinWindow(page, offer.getByRole('button', { name: 'Save' }));
      for (const input of await offer.getByRole('textbox').all()) await withinWindow(page, input);
    }
    await screenshot(page, 'offers-tablet');
    // Saved from the tablet, as at a desk.
    await rate.fill('0.9301');
    await rate.press('Enter');
    await page.getByText('USD → EUR: saved').waitFor();

    // From md up a table, beside the navigation: at its narrowest (992 px) too, nothing scrolls sideways.
    for (const width of [1280, 992]) {
      await page.setViewportSize({ width, height: 800 });
      await page.getByRole('table', { name: 'Offers' }).waitFor();
      expect(await sidewaysScroll(page), `${width} px`).toEqual([]);
    }
    expect(s.browser.problems).toEqual([]);
  });
});

describe("a form's error about another field", () => {
  it("names the other field in the offer form's words, not the API's", async () => {
    const page = await s.browser.page({ width: 1280, height: 800 });
    await logIn(page, s.server.url, s.server.logins.admin);
    await page.goto(`${s.server.url}/offers`);
    const minimum = page.getByRole('textbox', { name: 'Minimum of USD → EUR' });
    await minimum.fill('20000');
    await minimum.press('Enter');
    const row = page.locator('[data-offer-id]', { has: minimum });
    const error = row.locator('.mantine-InputWrapper-error').first();
    await error.waitFor();
    const message = await error.innerText();
    expect(message).toContain('must not be greater than the maximum');
    expect(message).not.toContain('maxAmount');
    await screenshot(page, 'offers-minimum-above-maximum');

    const form = page.getByRole('form', { name: 'New offer' });
    await form.getByRole('combobox', { name: 'Client gives' }).fill('JPY');
    await page.getByRole('option', { name: /^JPY —/ }).click();
    await form.getByRole('combobox', { name: 'Client gets' }).fill('JPY');
    await page.getByRole('option', { name: /^JPY —/ }).click();
    await form.getByRole('textbox', { name: 'Rate' }).fill('1');
    await form.getByRole('textbox', { name: 'Maximum' }).fill('1000');
    await form.getByRole('button', { name: 'Add' }).click();
    const same = form.locator('.mantine-InputWrapper-error').first();
    await same.waitFor();
    expect(await same.innerText()).toBe('Must differ from the currency the client gives');
    expect(s.browser.problems).toEqual([]);
  });

  it("names the opening time in the schedule's words, under the closing time it is about", async () => {
    const page = await s.browser.page({ width: 1280, height: 800 });
    await logIn(page, s.server.url, s.server.logins.admin);
    await page.goto(`${s.server.url}/exchanges`);
    await page.getByRole('link', { name: 'Airport Desk', exact: true }).click();
    await page.getByRole('textbox', { name: 'Monday opens' }).fill('19:00');
    await page.getByRole('textbox', { name: 'Monday closes' }).fill('18:00');
    await page.getByRole('button', { name: 'Save' }).click();
    const closes = page.getByRole('textbox', { name: 'Monday closes' });
    await expect.poll(() => closes.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    const message = await page.locator('tr[data-day="1"] .mantine-InputWrapper-error').innerText();
    expect(message).toMatch(/^Must be after the opening time 19:00/);
    expect(message).not.toContain('openTime');
    await screenshot(page, 'exchange-schedule-error-in-words');
    expect(s.browser.problems).toEqual([]);
  });
});

describe('an exchange that is not there', () => {
  it('says so, with a way back to the list, for a missing id and for one that is not a number', async () => {
    const page = await s.browser.page({ width: 1280, height: 800 });
    await logIn(page, s.server.url, s.server.logins.admin);
    for (const path of ['/exchanges/999999', '/exchanges/not-a-number']) {
      await page.goto(`${s.server.url}${path}`);
      await page.getByText('Exchange not found').waitFor();
      await page.getByRole('link', { name: 'All exchanges' }).click();
      await page.waitForURL(`${s.server.url}/exchanges`);
    }
  });
});
