import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { demoCatalog } from './support/demo';
import { sharedScenario } from './support/scenario';

/**
 * The rates widget as a partner embeds it: a page served from one local port, the service on another, a public
 * key in the page. What the widget shows must be the API's own figures.
 */
const s = sharedScenario();

/** The partner's site: pages by path, on a port of its own (so another origin than the service). */
const pages = new Map<string, string>();
const site = createServer((req, res) => {
  const html = pages.get(req.url ?? '');
  res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
});
let siteUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      site.closeAllConnections();
      site.close(() => resolve());
    }),
);

function embed(path: string, attrs: { key: string; exchangeId: number; lang: string }): string {
  pages.set(
    path,
    `<!doctype html><html lang="${attrs.lang}"><head><meta charset="utf-8"><title>Partner shop</title></head>
<body><h1>Partner shop</h1>
<script src="${s.server.url}/widget/v1/widget.js" data-key="${attrs.key}" data-exchange-id="${attrs.exchangeId}" async></script>
</body></html>`,
  );
  return `${siteUrl}${path}`;
}

/** A decimal string with the language's separators, digit for digit (what the widget must show). */
function localized(value: string | number, lang: string): string {
  const [int, frac] = String(value).split('.');
  const decimal = new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')!.value;
  return new Intl.NumberFormat(lang).format(BigInt(int)) + (frac ? decimal + frac : '');
}

async function ready(page: Page): Promise<void> {
  await page.locator('.pxs-widget[data-state="ready"]').waitFor();
}

async function expectRatesOfApi(page: Page, exchangeId: number, lang: string): Promise<void> {
  const api = (await s.server.partner('GET', `/public/rates?exchangeId=${exchangeId}`, s.server.keys.public)).body as {
    offerId: number;
    rate: number;
    sourceCurrency: { ticker: string };
    destCurrency: { ticker: string };
  }[];
  const rows = page.locator('.pxs-widget table.rates tbody tr');
  expect(await rows.count()).toBe(api.length);
  for (const r of api) {
    const row = page.locator(`.pxs-widget tr[data-offer-id="${r.offerId}"]`);
    await expect(row.locator('th').innerText()).resolves.toBe(`${r.sourceCurrency.ticker} → ${r.destCurrency.ticker}`);
    // The API writes money as JSON numbers; the demo's have few digits, so String() gives the API's digits back.
    await expect(row.locator('td[data-rate]').getAttribute('data-rate')).resolves.toBe(String(r.rate));
    await expect(row.locator('td[data-rate]').innerText()).resolves.toBe(localized(String(r.rate), lang));
  }
}

/** Types an amount into one side of the calculator and returns what the widget shows on the other. */
async function estimateIn(
  page: Page,
  side: string,
  other: string,
  typed: string,
): Promise<{ shown: string; exact: string | null }> {
  const input = page.getByLabel(other);
  await input.fill('');
  await page.getByLabel(side).fill(typed);
  await expect.poll(() => input.inputValue(), { timeout: 10_000 }).not.toBe('');
  return { shown: await input.inputValue(), exact: await input.getAttribute('data-amount') };
}

describe("the rates widget on a partner's page", () => {
  it("shows the office's rates, opening hours and estimates in both directions, equal to the API's figures", async () => {
    const { central, currency } = await demoCatalog(s.server);
    const page = s.page;
    await page.goto(embed('/shop', { key: s.server.keys.public, exchangeId: central, lang: 'en-US' }));
    await ready(page);
    await expectRatesOfApi(page, central, 'en-US');
    await expect(page.locator('.pxs-widget table.hours tbody tr').first().innerText()).resolves.toMatch(
      /^Monday\s+09:00–19:00$/,
    );
    await expect(page.locator('.pxs-widget table.hours tbody tr').last().innerText()).resolves.toMatch(
      /^Sunday\s+Closed$/,
    );

    await page.getByLabel('Exchange', { exact: true }).selectOption({ label: 'USD → EUR' });
    const pair = { exchangeId: central, sourceCurrencyId: currency('USD'), destCurrencyId: currency('EUR') };
    const forward = (
      await s.server.partner('POST', '/public/estimate', s.server.keys.public, { ...pair, amount: 1234.56 })
    ).body;
    const given = await estimateIn(page, 'You give (USD)', 'You get (EUR)', '1,234.56');
    expect(given).toEqual({ exact: String(forward.destAmount), shown: localized(forward.destAmount, 'en-US') });
    await expect(page.locator('.pxs-widget .rate').innerText()).resolves.toBe(
      `1 USD = ${localized(forward.rate, 'en-US')} EUR`,
    );

    const backward = (
      await s.server.partner('POST', '/public/estimate', s.server.keys.public, {
        ...pair,
        amount: 500,
        direction: 'dest',
      })
    ).body;
    const wanted = await estimateIn(page, 'You get (EUR)', 'You give (USD)', '500');
    expect(wanted).toEqual({ exact: String(backward.sourceAmount), shown: localized(backward.sourceAmount, 'en-US') });

    // Below the offer's minimum: the API's message, as it is.
    await page.getByLabel('You give (USD)').fill('1');
    await expect
      .poll(() => page.locator('.pxs-widget form .error').innerText(), { timeout: 10_000 })
      .toMatch(/minimum.*10|10.*minimum/i);
    await expect(page.getByLabel('You get (EUR)').inputValue()).resolves.toBe('');
    expect(s.browser.problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
  });

  it("follows the page's language for numbers (German: 64.250,17), digit for digit", async () => {
    const { central, currency } = await demoCatalog(s.server);
    const page = await s.browser.page();
    await page.goto(embed('/de', { key: s.server.keys.public, exchangeId: central, lang: 'de-DE' }));
    await ready(page);
    await expectRatesOfApi(page, central, 'de-DE');
    await expect(page.locator('.pxs-widget td[data-rate="64250.17"]').innerText()).resolves.toBe('64.250,17');
    await page.getByLabel('Exchange', { exact: true }).selectOption({ label: 'BTC → USD' });
    const api = (
      await s.server.partner('POST', '/public/estimate', s.server.keys.public, {
        exchangeId: central,
        sourceCurrencyId: currency('BTC'),
        destCurrencyId: currency('USD'),
        amount: 0.5,
      })
    ).body;
    const shown = await estimateIn(page, 'You give (BTC)', 'You get (USD)', '0,5');
    expect(shown).toEqual({ exact: String(api.destAmount), shown: localized(api.destAmount, 'de-DE') });
    expect(shown.shown).toBe('32.125,08');
  });

  it("shows a clear error when the key's allowed origins exclude the page, and the service answered 403", async () => {
    const { central } = await demoCatalog(s.server);
    const login = (await fetch(`${s.server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(s.server.logins.superadmin),
    }).then((r) => r.json())) as { accessToken: string };
    const mine = (await fetch(`${s.server.url}/api/v1/api-keys`, {
      headers: { authorization: `Bearer ${login.accessToken}` },
    }).then((r) => r.json())) as { type: string; branchId: number }[];
    const branchId = mine.find((k) => k.type === 'public')!.branchId;
    const created = (await fetch(`${s.server.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.accessToken}` },
      body: JSON.stringify({
        name: 'Only the real shop',
        type: 'public',
        branchId,
        allowedOrigins: ['https://shop.example'],
      }),
    }).then((r) => r.json())) as { rawKey: string; allowedOrigins: string[] };
    expect(created.allowedOrigins).toEqual(['https://shop.example']);

    const page = await s.browser.page();
    const answers: Response[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/partner/public/')) answers.push(r);
    });
    await page.goto(embed('/copycat', { key: created.rawKey, exchangeId: central, lang: 'en' }));
    await page.locator('.pxs-widget[data-state="error"]').waitFor();
    await expect(page.locator('.pxs-widget [role=alert]').innerText()).resolves.toBe(
      `Origin ${siteUrl} is not allowed to use this key`,
    );
    expect(answers.filter((r) => r.request().method() === 'GET').map((r) => r.status())).toEqual([403]);
  });

  it('a key limited in the console to other origins: the widget shows a clear error, the service answered 403; allowing the page fixes it', async () => {
    const { central } = await demoCatalog(s.server);
    const page = await s.browser.page();
    await logIn(page, s.server.url, s.server.logins.superadmin);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'New key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Shop widget');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: /^Public:/ }).click();
    await dialog.getByRole('combobox', { name: 'Branch' }).click();
    await page.getByRole('option', { name: 'Demo Branch' }).click();
    await dialog
      .getByRole('textbox', { name: 'Allowed origins (optional)' })
      .fill('https://Shop.example\nhttps://shop.example/checkout');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    // Not an origin: the API's message under the field, nothing created.
    await expect(dialog.getByText('is not an origin').innerText()).resolves.toContain('https://shop.example/checkout');
    await dialog.getByRole('textbox', { name: 'Allowed origins (optional)' }).fill('https://Shop.example');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const rawKey = (await dialog.getByTestId('raw-key').innerText()).trim();
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.getByRole('table', { name: 'Keys you created' }).locator('tr', { hasText: 'Shop widget' });
    await expect(row.innerText()).resolves.toContain('https://shop.example');

    const partner = await s.browser.page();
    const answers: Response[] = [];
    partner.on('response', (r) => {
      if (r.url().includes('/partner/public/')) answers.push(r);
    });
    const url = embed('/copycat', { key: rawKey, exchangeId: central, lang: 'en' });
    await partner.goto(url);
    await partner.locator('.pxs-widget[data-state="error"]').waitFor();
    await expect(partner.locator('.pxs-widget [role=alert]').innerText()).resolves.toBe(
      `Origin ${siteUrl} is not allowed to use this key`,
    );
    expect(answers.filter((r) => r.request().method() === 'GET').map((r) => r.status())).toEqual([403]);

    await row.getByRole('button', { name: 'Origins of Shop widget' }).click();
    await page.getByRole('textbox', { name: 'Allowed origins (optional)' }).fill(`https://shop.example\n${siteUrl}`);
    await page.getByRole('button', { name: 'Save origins' }).click();
    // The table refetches after the save: wait for it as long as for any step (expect.poll's default is 1 s).
    await expect.poll(() => row.innerText(), { timeout: 15_000 }).toContain(siteUrl);
    await partner.reload();
    await ready(partner);
    await expectRatesOfApi(partner, central, 'en');
    // Two tabs, a login and two dialogs: about 12 s on an idle machine; each step still fails within 15 s.
  }, 120_000);

  it('a page cannot use a secret key: the browser blocks GET /partner/offers (no CORS headers)', async () => {
    pages.set(
      '/secret',
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Leaky page</title></head><body></body></html>',
    );
    const page = await s.browser.page();
    await page.goto(`${siteUrl}/secret`);
    const outcome = await page.evaluate(
      async ({ url, key }) => {
        try {
          const res = await fetch(`${url}/api/v1/partner/offers`, { headers: { Authorization: `Bearer ${key}` } });
          return `read ${res.status}`;
        } catch (e) {
          return `blocked: ${(e as Error).name}`;
        }
      },
      { url: s.server.url, key: s.server.keys.branch },
    );
    expect(outcome).toBe('blocked: TypeError');
    // The same call from a server succeeds: what stopped the page is the browser's CORS check.
    expect((await s.server.partner('GET', '/offers', s.server.keys.branch)).status).toBe(200);
  });

  // Its screenshot is docs/widget.md's image; `npm run docs:images` copies it there (tests never write into the tree).
  it("the demo page shows the widget with the demo branch's public key (the screenshot in docs/widget.md)", async () => {
    const page = await s.browser.page({ width: 760, height: 980 });
    await page.goto(`${s.server.url}/widget/demo`);
    await ready(page);
    await page.getByLabel('Exchange', { exact: true }).selectOption({ label: 'USD → EUR' });
    await estimateIn(page, 'You give (USD)', 'You get (EUR)', '250');
    await page.getByLabel('You give (USD)').blur();
    await screenshot(page, 'widget');
  });
});
