import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { logIn, screenshot } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { sidewaysScroll } from './support/layout';
import { sharedScenario } from './support/scenario';
import { staffCall, staffToken } from './support/staff-api';

/**
 * The Reports page against the API's own figures: a few orders settled through the API, then the page's totals read
 * and compared with the report the API gives for the same days and zone (other files on the shared demo may settle
 * orders too, so the page is held to the API, not to sums of its own).
 */
let token = '';
const s = sharedScenario(async ({ server }) => {
  const catalog = await demoCatalog(server);
  token = await staffToken(server.url, server.logins.admin);
  const orders = [
    { cashbox: catalog.central, from: catalog.currency('USD'), to: catalog.currency('EUR'), amount: 250 },
    { cashbox: catalog.central, from: catalog.currency('EUR'), to: catalog.currency('USD'), amount: 120.5 },
    { cashbox: catalog.airport, from: catalog.currency('USD'), to: catalog.currency('EUR'), amount: 99.99 },
  ];
  for (const body of orders) {
    const { id } = await partnerOrder(server, body);
    for (const status of ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'SUCCESS']) {
      const moved = await staffCall(server.url, token, 'POST', `/admin/orders/${id}/status`, { status });
      if (moved.status !== 200) throw new Error(`move ${id} to ${status}: ${moved.status} ${moved.text}`);
    }
  }
});

/** The API's decimal as the page writes it with the currency's decimals, without the locale's grouping. */
function padded(value: number, decimals: number): string {
  const [whole, fraction = ''] = String(value).split('.');
  return decimals === 0 ? whole! : `${whole}.${fraction.padEnd(decimals, '0')}`;
}
const plain = (text: string) => text.replace(/,/g, '').trim();

describe('the Reports page', () => {
  it("shows today's totals per currency as the API reports them, draws the chart, and downloads the CSV", async () => {
    const { page } = s;
    await logIn(page, s.server.url, s.server.logins.admin);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByText('Today', { exact: true }).click();
    const tz = await page.getByRole('combobox', { name: 'Time zone' }).inputValue();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(new Date());
    const api = await staffCall(
      s.server.url,
      token,
      'GET',
      `/admin/reports/turnover?from=${today}&to=${today}&groupBy=currency&tz=${encodeURIComponent(tz)}`,
    );
    expect(api.status, api.text).toBe(200);
    const rows = api.body.data as { currency: { ticker: string }; received: number; paidOut: number; income: number }[];
    expect(rows.map((r) => r.currency.ticker).sort()).toEqual(['EUR', 'USD']);

    const table = page.locator('[data-turnover="currency"]');
    for (const r of rows) {
      const row = table.locator(`[data-currency="${r.currency.ticker}"]`);
      await expect.poll(() => row.locator('[data-received]').innerText().then(plain)).toBe(padded(r.received, 2));
      expect(plain(await row.locator('[data-paid-out]').innerText())).toBe(padded(r.paidOut, 2));
      expect(plain(await row.locator('[data-income]').innerText())).toBe(padded(r.income, 2));
    }
    // Both offices had an order settled: each has its rows.
    await page.locator('[data-turnover="exchange"]').getByText('Airport Desk').first().waitFor();
    await page.locator('[data-turnover="exchange"]').getByText('Central Exchange').first().waitFor();
    await page.locator('section[aria-labelledby="report-day"] svg.recharts-surface').first().waitFor();
    await expect(
      page.locator('section[aria-labelledby="report-day"] .recharts-bar-rectangle').count(),
    ).resolves.toBeGreaterThan(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV by currency' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`turnover-currency-${today}-${today}.csv`);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toContain('received');
    expect(lines).toHaveLength(rows.length + 1);
    for (const r of rows) expect(csv).toContain(r.currency.ticker);

    expect(await axeViolations(page)).toEqual([]);
    await page.getByText('This week', { exact: true }).click();
    await screenshot(page, 'reports');
    expect(s.browser.problems).toEqual([]);
  });

  it('fits a phone without scrolling sideways', async () => {
    const page = await s.browser.page({ width: 390, height: 844 });
    await logIn(page, s.server.url, s.server.logins.admin);
    await page.goto(`${s.server.url}/reports`);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.locator('[data-turnover="currency"]').waitFor();
    await page.locator('section[aria-labelledby="report-day"] svg.recharts-surface').first().waitFor();
    expect(await sidewaysScroll(page)).toEqual([]);
    await screenshot(page, 'reports-phone');
  });
});
