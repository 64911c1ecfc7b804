import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { logIn, screenshot } from './support/browser';
import { startRateFeed } from './support/receiver';
import { scenario } from './support/scenario';

/**
 * Market rates in the console: an admin registers a JSON feed on this machine, prices an offer from it with a
 * margin, and watches the open offers page follow the source by itself: a re-price with the pricing drawer open
 * (which stays open), the week's rate chart (the demo's history, then the feed's), the feed's jump suspending the
 * offer, and Resume. Its own server: it changes how a demo offer is priced.
 */
let feed: Awaited<ReturnType<typeof startRateFeed>>;
beforeAll(async () => {
  feed = await startRateFeed({ 'USD/EUR': '0.9300', 'EUR/GBP': '0.8600' });
});
afterAll(() => feed?.close());
const s = scenario();

const nav = (name: string) => s.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name });
const card = () => s.page.locator('[data-rate-source="Local feed"]');
const drawer = () => s.page.getByRole('dialog', { name: 'USD → EUR: pricing' });

describe('market rates in the console', () => {
  it('a source is added and read, an offer is priced from it; the open page follows its re-price (the drawer stays open) and its suspension without a reload; Resume puts it back', async () => {
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
    await expect(card().locator('[data-pair="USD/EUR"]').innerText()).resolves.toMatch(/USD\/EUR\s+0\.93(00)? EUR/);
    expect(await axeViolations(s.page)).toEqual([]);
    await screenshot(s.page, 'rate-sources');

    // The offer USD → EUR of Central Exchange, priced from the feed 1 % below it, suspended on a 5 % jump. The drawer
    // names the offer in the address, which is how the row is found from here on, behind the drawer or not.
    await nav('Offers and rates').click();
    await s.page.getByRole('heading', { name: 'Offers and rates', level: 1 }).waitFor();
    await expect
      .poll(() => s.page.locator('[data-spread="USD/EUR"] [data-field="spreadPercent"]').innerText())
      .toBe('1.28892 %');
    // Set once: still there at the end only if the page was never loaded again.
    await s.page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await s.page.getByRole('button', { name: 'Pricing and chart of USD → EUR' }).click();
    await drawer().waitFor();
    const offerId = new URL(s.page.url()).searchParams.get('offer');
    expect(offerId).toMatch(/^\d+$/);
    const usdEur = s.page.locator(`[data-offer-id="${offerId}"]`);
    const rate = usdEur.locator('input[data-field="rate"]');
    await drawer().getByRole('combobox', { name: 'Pricing' }).click();
    await s.page.getByRole('option', { name: 'From a rate source, with a margin' }).click();
    await drawer().getByRole('combobox', { name: 'Rate source' }).click();
    await s.page.getByRole('option', { name: 'Local feed' }).click();
    await drawer().getByRole('textbox', { name: 'Margin (%)' }).fill('-1');
    await drawer().getByRole('textbox', { name: 'Suspend on a jump over (%) (optional)' }).fill('5');
    await drawer().getByRole('button', { name: 'Save pricing' }).click();
    await s.page.getByText('USD → EUR: priced from the source').waitFor();
    // The save redrew the row (a new offer): the drawer stays open on it.
    await expect.poll(() => rate.inputValue()).toBe('0.9207');
    expect(await drawer().isVisible()).toBe(true);
    await expect(usdEur.locator('[data-pricing]').innerText()).resolves.toMatch(
      /Local feed · USD\/EUR −1 %.*reference 0\.93/,
    );

    // The feed moves 0.5 %: the poller re-prices the offer, and the open page reads it by itself, the drawer still
    // open over the redrawn row.
    feed.state.rates = { 'USD/EUR': '0.9350', 'EUR/GBP': '0.8600' };
    await expect.poll(() => rate.inputValue(), { timeout: 20_000 }).toBe('0.92565');
    expect(await drawer().isVisible()).toBe(true);
    expect(new URL(s.page.url()).searchParams.get('offer')).toBe(offerId);

    // The chart of the last 7 days: the demo's month of history, then the two rates made from the feed.
    await s.page.getByText('USD → EUR: priced from the source').waitFor({ state: 'hidden' });
    await drawer().locator('[data-rate-chart] label', { hasText: '7 days' }).click();
    const chart = drawer().locator('[data-rate-chart] svg.recharts-surface').first();
    await chart.waitFor({ timeout: 30_000 });
    await expect.poll(() => drawer().locator('[data-rate-chart] .recharts-line').count()).toBe(2);
    // recharts draws a line as one path: a week of points makes it long, two points a few seconds apart did not.
    await expect
      .poll(() => drawer().locator('[data-rate-chart] .recharts-line-curve').first().getAttribute('d'))
      .toMatch(/^M(?:[^L]*L){80}/);
    // The whole chart in sight, without the tooltip of wherever the pointer was left.
    await drawer()
      .locator('[data-rate-chart]')
      .evaluate((chartBox) => chartBox.scrollIntoView({ block: 'end' }));
    await s.page.mouse.move(5, 5);
    await screenshot(s.page, 'offer-rate-chart');
    await s.page.keyboard.press('Escape');
    await drawer().waitFor({ state: 'hidden' });
    expect(new URL(s.page.url()).searchParams.get('offer')).toBeNull();

    // The feed jumps 30 %: the poller suspends the offer, and the page shows it within seconds, without a reload.
    feed.state.rates = { 'USD/EUR': '1.2000', 'EUR/GBP': '0.8600' };
    await expect.poll(() => usdEur.getAttribute('data-pricing-state'), { timeout: 20_000 }).toBe('suspended');
    await expect(usdEur.locator('[data-suspended]').innerText()).resolves.toBe('REFERENCE JUMPED');
    expect(await s.page.evaluate(() => 'sameDocument' in window)).toBe(true);
    await screenshot(s.page, 'offer-suspended');

    await usdEur.getByRole('button', { name: 'Resume USD → EUR' }).click();
    await s.page.getByText(/USD → EUR: resumed at/).waitFor();
    await expect.poll(() => usdEur.getAttribute('data-pricing-state')).toBe('active');
    await expect.poll(() => rate.inputValue()).toBe('1.188');

    // An address with ?offer= (a reload, a shared link) opens the same drawer.
    const address = new URL(s.page.url());
    address.searchParams.set('offer', offerId!);
    await s.page.goto(address.toString());
    await drawer().waitFor();
    await expect.poll(() => drawer().locator('[data-rate-chart] .recharts-line').count()).toBe(2);
    expect(s.browser.problems).toEqual([]);
  }, 240_000);
});
