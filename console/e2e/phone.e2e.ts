import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unlabelledControls } from './support/a11y';
import { logIn, screenshot } from './support/browser';
import { sidewaysScroll } from './support/layout';
import { scenario } from './support/scenario';

/** A branch admin on a phone (390×844): the weekly hours and the rates are read and edited without scrolling sideways. */
const s = scenario({}, async (sc) => {
  await sc.page.setViewportSize({ width: 390, height: 844 });
});

/** Shown, and whole within the window's width. */
async function inView(locator: Locator) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  expect(box, String(locator)).not.toBeNull();
  expect(box!.x, String(locator)).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, String(locator)).toBeLessThanOrEqual(390);
}

describe('on a phone', () => {
  it("shows an exchange's weekly hours without scrolling sideways", async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.getByRole('button', { name: 'Toggle navigation' }).click();
    await s.page.getByRole('link', { name: 'Exchanges' }).click();
    await s.page.getByRole('link', { name: 'Central Exchange' }).click();
    await s.page.getByRole('heading', { name: 'Central Exchange', level: 1 }).waitFor();
    for (const day of ['Monday', 'Sunday']) {
      await inView(s.page.getByText(day, { exact: true }));
      await inView(s.page.getByRole('textbox', { name: `${day} opens` }));
      await inView(s.page.getByRole('textbox', { name: `${day} closes` }));
    }
    await inView(s.page.getByRole('checkbox', { name: 'Published' }).first());
    await expect(s.page.getByRole('textbox', { name: 'Monday opens' }).inputValue()).resolves.toMatch(/^\d\d:\d\d$/);
    expect(await sidewaysScroll(s.page)).toEqual([]);
    expect(await unlabelledControls(s.page)).toEqual([]);
    await s.page.getByRole('textbox', { name: 'Monday opens' }).scrollIntoViewIfNeeded();
    await screenshot(s.page, 'exchange-edit-phone');
  });

  it('shows and edits the rates without scrolling sideways', async () => {
    await s.page.getByRole('button', { name: 'Toggle navigation' }).click();
    await s.page.getByRole('link', { name: 'Offers and rates' }).click();
    const rate = s.page.getByRole('textbox', { name: 'Rate of USD → EUR' });
    await inView(s.page.getByText('USD → EUR', { exact: true }));
    await inView(rate);
    await expect(rate.inputValue()).resolves.toBe('0.9215');
    await inView(s.page.getByRole('textbox', { name: 'Maximum of USD → EUR' }));
    await inView(s.page.getByRole('switch', { name: 'USD → EUR active' }));
    expect(await sidewaysScroll(s.page)).toEqual([]);
    expect(await unlabelledControls(s.page)).toEqual([]);
    await screenshot(s.page, 'offers-phone');

    await rate.fill('0.9301');
    await rate.press('Enter');
    await s.page.getByText('USD → EUR: saved').waitFor();
    const offers = await s.server.partner('GET', '/offers?limit=100', s.server.keys.branch);
    expect(offers.body.data.map((o: { rate: unknown }) => String(o.rate))).toContain('0.9301');
    expect(s.browser.problems).toEqual([]);
  });
});
