import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { logIn, screenshot } from './support/browser';
import { startRateFeed } from './support/receiver';
import { scenario } from './support/scenario';

/**
 * Market rates in the console: an admin registers a JSON feed on this machine, prices an offer from it with a
 * margin, sees the feed jump suspend the offer, resumes it, and reads the offer's rate chart. Its own server: it
 * changes how a demo offer is priced.
 */
let feed: Awaited<ReturnType<typeof startRateFeed>>;
beforeAll(async () => {
  feed = await startRateFeed({ 'USD/EUR': '0.9200', 'EUR/GBP': '0.8600' });
});
afterAll(() => feed?.close());
const s = scenario();

const nav = (name: string) => s.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name });
const card = () => s.page.locator('[data-rate-source="Local feed"]');
const usdEur = () =>
  s.page.locator('[data-offer-id]', { has: s.page.getByRole('textbox', { name: 'Rate of USD → EUR' }) });

/** The offers list is read when the page opens: reload until the row says what the poller did. */
async function reloadUntil(check: () => Promise<boolean>) {
  for (let i = 0; i < 60; i += 1) {
    if (await check()) return;
    await s.page.waitForTimeout(1000);
    await s.page.reload();
    await s.page.getByRole('heading', { name: 'Offers and rates', level: 1 }).waitFor();
  }
  throw new Error('the offer never changed');
}

describe('market rates in the console', () => {
  it('a source is added and read, an offer is priced from it, a jump suspends it, Resume puts it back, the chart draws it', async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await nav('Rate sources').click();
    await s.page.getByRole('heading', { name: 'Rate sources', level: 1 }).waitFor();

    // A URL the guard refuses shows under the URL field.
    const form = s.page.getByRole('form', { name: 'New rate source' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Local feed');
    await form.getByRole('combobox', { name: 'Format' }).click();
    await s.page.getByRole('option', { name: 'JSON' }).click();
    await form.getByRole('textbox', { name: 'URL' }).fill('ftp://example.com/rates.json');
    await form.getByRole('textbox', { name: 'Read every (seconds)' }).fill('1');
    await form.getByRole('button', { name: 'Add source' }).click();
    const urlId = await form.getByRole('textbox', { name: 'URL' }).getAttribute('id');
    await expect.poll(() => s.page.locator(`[id="${urlId}-error"]`).count()).toBe(1);

    await form.getByRole('textbox', { name: 'URL' }).fill(feed.url);
    await form.getByRole('button', { name: 'Add source' }).click();
    await card().waitFor();
    await expect
      .poll(() => card().locator('[data-source-state]').getAttribute('data-source-state'), { timeout: 30_000 })
      .toBe('ok');
    await card()
      .getByRole('button', { name: /Show the 2 pairs read/ })
      .click();
    await expect(card().locator('[data-pair="USD/EUR"]').innerText()).resolves.toMatch(/USD\/EUR\s+0\.92(00)? EUR/);
    expect(await axeViolations(s.page)).toEqual([]);
    await screenshot(s.page, 'rate-sources');

    // The offer USD → EUR of Central Exchange, priced from the feed 1 % below it, suspended on a 5 % jump.
    await nav('Offers and rates').click();
    await s.page.getByRole('heading', { name: 'Offers and rates', level: 1 }).waitFor();
    await expect
      .poll(() => s.page.locator('[data-spread="USD/EUR"] [data-field="spreadPercent"]').innerText())
      .toBe('1.28892 %');
    await usdEur().getByRole('button', { name: 'Pricing and chart of USD → EUR' }).click();
    const drawer = s.page.getByRole('dialog', { name: 'USD → EUR: pricing' });
    await drawer.getByRole('combobox', { name: 'Pricing' }).click();
    await s.page.getByRole('option', { name: 'From a rate source, with a margin' }).click();
    await drawer.getByRole('combobox', { name: 'Rate source' }).click();
    await s.page.getByRole('option', { name: 'Local feed' }).click();
    await drawer.getByRole('textbox', { name: 'Margin (%)' }).fill('-1');
    await drawer.getByRole('textbox', { name: 'Suspend on a jump over (%) (optional)' }).fill('5');
    await drawer.getByRole('button', { name: 'Save pricing' }).click();
    await s.page.getByText('USD → EUR: priced from the source').waitFor();
    await s.page.keyboard.press('Escape');
    await expect.poll(() => s.page.getByRole('textbox', { name: 'Rate of USD → EUR' }).inputValue()).toBe('0.9108');
    await expect(usdEur().locator('[data-pricing]').innerText()).resolves.toMatch(
      /Local feed · USD\/EUR −1 %.*reference 0\.92/,
    );

    // The feed jumps 30 %: the poller suspends the offer.
    feed.state.rates = { 'USD/EUR': '1.2000', 'EUR/GBP': '0.8600' };
    await reloadUntil(async () => (await usdEur().getAttribute('data-pricing-state')) === 'suspended');
    await expect(usdEur().locator('[data-suspended]').innerText()).resolves.toBe('REFERENCE JUMPED');
    await screenshot(s.page, 'offer-suspended');

    await usdEur().getByRole('button', { name: 'Resume USD → EUR' }).click();
    await s.page.getByText(/USD → EUR: resumed at/).waitFor();
    await expect.poll(() => usdEur().getAttribute('data-pricing-state')).toBe('active');

    // The chart of the last 24 h: recharts' svg with the rate's and the reference's lines.
    await usdEur().getByRole('button', { name: 'Pricing and chart of USD → EUR' }).click();
    const chart = s.page.locator('[data-rate-chart] svg.recharts-surface').first();
    await chart.waitFor({ timeout: 30_000 });
    await expect.poll(() => s.page.locator('[data-rate-chart] .recharts-line').count()).toBe(2);
    await s.page.locator('[data-rate-chart] label', { hasText: '7 days' }).click();
    await expect.poll(() => s.page.locator('[data-rate-chart] .recharts-line').count()).toBe(2);
    await screenshot(s.page, 'offer-rate-chart');
    expect(s.browser.problems).toEqual([]);
  }, 240_000);
});
