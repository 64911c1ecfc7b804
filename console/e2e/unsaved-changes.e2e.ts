import type { Dialog } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { scenario } from './support/scenario';

/**
 * A branch admin edits an exchange and is called away: leaving the page with edits not saved asks first (Stay keeps
 * them, Leave drops them), and so do Back and a reload; once saved, nothing asks.
 */
const s = scenario();

const leave = () => s.page.getByRole('dialog', { name: 'Leave without saving?' });
const city = () => s.page.getByRole('textbox', { name: 'City' });
const mondayOpens = () => s.page.getByRole('textbox', { name: 'Monday opens' });
const heading = (name: string) => s.page.getByRole('heading', { name, level: 1 });
const navTo = (name: string) => s.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name });

describe('unsaved edits', () => {
  it('are asked about before a menu link leaves them: Stay keeps them, Leave drops them', async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await navTo('Exchanges').click();
    await s.page.getByRole('link', { name: 'Central Exchange' }).click();
    await heading('Central Exchange').waitFor();
    const address = s.page.url();
    await city().fill('Porto');
    await mondayOpens().fill('08:30');

    await navTo('Offers and rates').click();
    await leave().waitFor();
    await expect(leave().innerText()).resolves.toContain('Central Exchange: office details and weekly hours');
    // Stay is the default: Enter keeps the edits.
    await expect(
      leave()
        .getByRole('button', { name: 'Stay' })
        .evaluate((b) => b === document.activeElement),
    ).resolves.toBe(true);
    await screenshot(s.page, 'unsaved-changes');
    await leave().getByRole('button', { name: 'Stay' }).click();
    await leave().waitFor({ state: 'hidden' });
    expect(s.page.url()).toBe(address);
    await expect(city().inputValue()).resolves.toBe('Porto');
    await expect(mondayOpens().inputValue()).resolves.toBe('08:30');

    await navTo('Offers and rates').click();
    await leave().getByRole('button', { name: 'Leave' }).click();
    await heading('Offers and rates').waitFor();
    await s.page.goBack();
    await heading('Central Exchange').waitFor();
    await expect(city().inputValue()).resolves.toBe('Lisbon');
    await expect(mondayOpens().inputValue()).resolves.not.toBe('08:30');
    expect(s.browser.problems).toEqual([]);
  });

  it("are asked about on Back, and a reload gets the browser's own prompt", async () => {
    await s.page.getByRole('link', { name: 'All exchanges' }).click();
    await heading('Exchanges').waitFor();
    await s.page.getByRole('link', { name: 'Central Exchange' }).click();
    await city().fill('Porto');
    await s.page.goBack();
    await leave().waitFor();
    await leave().getByRole('button', { name: 'Stay' }).click();
    await leave().waitFor({ state: 'hidden' });
    await heading('Central Exchange').waitFor();
    await expect(city().inputValue()).resolves.toBe('Porto');

    const prompts: string[] = [];
    const answer = (d: Dialog) => {
      prompts.push(d.type());
      void d.accept();
    };
    s.page.on('dialog', answer);
    try {
      await s.page.reload();
      expect(prompts).toEqual(['beforeunload']);
      await expect(city().inputValue()).resolves.toBe('Lisbon');
      // Nothing left unsaved: no prompt. The click first, as Chromium prompts only on a page the user has touched.
      await city().click();
      await s.page.reload();
      await heading('Central Exchange').waitFor();
      expect(prompts).toEqual(['beforeunload']);
    } finally {
      s.page.off('dialog', answer);
    }
  });

  it('are not asked about once saved', async () => {
    await city().fill('Lisboa');
    await mondayOpens().fill('08:45');
    await s.page.getByRole('button', { name: 'Save' }).click();
    await s.page.getByText('Central Exchange: saved').waitFor();
    await navTo('Offers and rates').click();
    await heading('Offers and rates').waitFor();
    await expect(leave().count()).resolves.toBe(0);

    // A rate edited in its row and saved: leaving does not ask either.
    const rate = s.page.getByRole('textbox', { name: 'Rate of USD → EUR' });
    await rate.fill('0.93');
    await navTo('Home').click();
    await expect(leave().innerText()).resolves.toContain('USD → EUR: rate');
    await leave().getByRole('button', { name: 'Stay' }).click();
    await rate.press('Enter');
    await s.page.getByText('USD → EUR: saved').waitFor();
    await navTo('Home').click();
    await heading('Home').waitFor();
    await expect(leave().count()).resolves.toBe(0);
    expect(s.browser.problems).toEqual([]);
  });

  it('in a dialog (a new staff user) are asked about on Back, above that dialog', async () => {
    await navTo('Staff').click();
    await s.page.getByRole('button', { name: 'New staff user' }).click();
    const form = s.page.getByRole('dialog', { name: 'New staff user' });
    await form.getByRole('textbox', { name: 'Email' }).fill('new.clerk@demo.local');
    await s.page.goBack();
    await expect(leave().innerText()).resolves.toContain('New staff user');
    await leave().getByRole('button', { name: 'Stay' }).click();
    await leave().waitFor({ state: 'hidden' });
    await expect(form.getByRole('textbox', { name: 'Email' }).inputValue()).resolves.toBe('new.clerk@demo.local');
    await s.page.goBack();
    await leave().getByRole('button', { name: 'Leave' }).click();
    await heading('Home').waitFor();
    await expect(form.count()).resolves.toBe(0);
    expect(s.browser.problems).toEqual([]);
  });
});
