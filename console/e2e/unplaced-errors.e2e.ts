import { describe, expect, it } from 'vitest';
import { logIn, screenshot } from './support/browser';
import { sharedScenario } from './support/scenario';

/** An error the API names outside the form's fields is a notice, and it names the field as the form does. */
const s = sharedScenario();

describe('a refusal with no field on the form', () => {
  it("names a too long allowed origin in the form's words, not by the API's name for the list's item", async () => {
    await logIn(s.page, s.server.url, s.server.logins.superadmin);
    await s.page.getByRole('link', { name: 'API keys' }).click();
    await s.page.getByRole('button', { name: 'New key' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Shop widget');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await s.page.getByRole('option', { name: /^Public:/ }).click();
    await dialog.getByRole('combobox', { name: 'Branch' }).click();
    await s.page.getByRole('option', { name: 'Demo Branch' }).click();
    // The second origin is longer than the API takes: it names `allowedOrigins.1`, which no field of the form is.
    await dialog
      .getByRole('textbox', { name: /^Allowed origins/ })
      .fill(`https://shop.example\nhttps://${'a'.repeat(200)}.example`);
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const notice = s.page.locator('.mantine-Notification-root', { hasText: 'must be at most 200 characters long' });
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).toContain('One of the allowed origins must be at most 200 characters long');
    expect(text).not.toContain('allowedOrigins');
    await screenshot(s.page, 'unplaced-error-in-words');
    // Refused: the form is still there to correct, and no key was made.
    await dialog.getByRole('button', { name: 'Create key' }).waitFor();
    await expect(dialog.getByTestId('raw-key').count()).resolves.toBe(0);
    expect(s.browser.problems).toEqual([]);
  });
});
