import { describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { logIn, screenshot } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { scenario } from './support/scenario';

/** An exchange's cash in the console: a branch admin records it, an operator without cash:write only reads it. */
let catalog: Awaited<ReturnType<typeof demoCatalog>>;
const s = scenario({}, async ({ server }) => {
  catalog = await demoCatalog(server);
});

const position = (ticker: string, field: string) =>
  s.page.locator(`[data-position="${ticker}"] [data-field="${field}"]`);
const ledgerRows = () => s.page.locator('[data-ledger="USD"] tbody tr');
const field = (label: string) => s.page.getByRole('textbox', { name: label });
const errorOf = async (label: string) => {
  const id = await field(label).getAttribute('id');
  return s.page.locator(`[id="${id}-error"]`);
};

describe("an exchange's Cash page", () => {
  it('as a branch admin: a first deposit starts USD, a count shows its difference before it is saved, a withdrawal of held cash is refused in the form', async () => {
    await logIn(s.page, s.server.url, s.server.logins.admin);
    await s.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Cash' }).click();
    await s.page.getByRole('heading', { name: 'Cash', level: 1 }).waitFor();
    await s.page.locator('[data-positions="none"]').waitFor();

    // A deposit in a currency not tracked yet.
    await s.page.getByRole('form', { name: 'Deposit' }).getByRole('combobox', { name: 'Currency' }).click();
    await s.page.getByRole('option', { name: 'USD', exact: true }).click();
    await field('Amount deposited').fill('1000.50');
    await field('Reason (optional)').fill('Opening float');
    await s.page.getByRole('button', { name: 'Deposit', exact: true }).click();
    await expect.poll(() => position('USD', 'balance').innerText()).toBe('1,000.50');
    await expect.poll(() => position('USD', 'available').innerText()).toBe('1,000.50');
    await expect.poll(() => ledgerRows().count()).toBe(1);
    const first = ledgerRows().first();
    await expect(first.innerText()).resolves.toMatch(/Deposit\s+\+1,000\.50\s+1,000\.50\s+you\s+Opening float/i);

    // A count: the difference is on the page while it is typed, before anything is saved.
    await s.page.getByRole('tab', { name: 'Count' }).click();
    await field('Cash counted').fill('990.25');
    await expect
      .poll(() => s.page.locator('[data-count-difference]').innerText())
      .toBe('Difference: −10.25 USD (counted 990.25 − balance 1,000.50)');
    expect(await ledgerRows().count()).toBe(1);
    await s.page.getByRole('button', { name: 'Record count' }).click();
    await expect.poll(() => position('USD', 'balance').innerText()).toBe('990.25');
    await expect.poll(() => ledgerRows().count()).toBe(2);
    await expect(ledgerRows().first().innerText()).resolves.toMatch(/Count\s+−10\.25\s+990\.25\s+you/i);

    // A watermark below which available cash is flagged.
    await s.page.getByRole('tab', { name: 'Low watermark' }).click();
    await field('Low watermark').fill('800');
    await s.page.getByRole('button', { name: 'Set', exact: true }).click();
    await expect.poll(() => position('USD', 'lowWatermark').innerText()).toBe('800.00');
    expect(await s.page.locator('[data-position="USD"] [data-low]').count()).toBe(0);

    // More than is available: the form says so without asking the API.
    await s.page.getByRole('tab', { name: 'Withdrawal' }).click();
    await field('Amount withdrawn').fill('1000');
    await s.page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expect((await errorOf('Amount withdrawn')).innerText()).resolves.toBe(
      'Only 990.25 USD is available: 0.00 is held by open orders',
    );

    // An order placed meanwhile holds USD; the page still shows the earlier figures, and the API's refusal lands
    // under the amount.
    await partnerOrder(s.server, {
      cashbox: catalog.central,
      from: catalog.currency('EUR'),
      to: catalog.currency('USD'),
      amount: 200,
    });
    await field('Amount withdrawn').fill('900');
    await s.page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expect
      .poll(async () => (await errorOf('Amount withdrawn')).innerText())
      .toMatch(/^Would leave the balance below the [\d.]+ USD held by open orders; [\d.]+ USD is available$/);
    // The refusal brought the figures up to date: the order's hold is shown.
    await expect.poll(() => position('USD', 'held').innerText()).not.toBe('0.00');
    // What the order holds leaves less available than the watermark.
    await s.page.locator('[data-position="USD"] [data-low]').waitFor();
    expect(await ledgerRows().count()).toBe(2);
    // The docs' image, without the notices of the saves above.
    await expect.poll(() => s.page.getByRole('button', { name: 'Close notice' }).count(), { timeout: 15_000 }).toBe(0);
    await screenshot(s.page, 'cash');
    // The page with figures, forms, a field's error and the ledger: accessibility.e2e.ts sees it empty.
    expect(await axeViolations(s.page)).toEqual([]);

    // The home page lists the position below its watermark, a link to it. (The refused amount is given up first, or
    // leaving would ask about the unsaved withdrawal.)
    await field('Amount withdrawn').fill('');
    await s.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Home' }).click();
    await s.page.getByRole('heading', { name: 'Cash below its watermark' }).waitFor();
    await s.page.getByRole('link', { name: 'Central Exchange: USD' }).click();
    await s.page.getByRole('heading', { name: 'Cash', level: 1 }).waitFor();
    await expect.poll(() => ledgerRows().count()).toBe(2);
    expect(s.browser.problems).toEqual([]);
  });

  it('as an operator without cash:write: the figures and the ledger, no forms', async () => {
    const page = await s.browser.page();
    await logIn(page, s.server.url, s.server.logins.operator);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Cash' }).click();
    await page.getByRole('heading', { name: 'Cash', level: 1 }).waitFor();
    await page.locator('[data-position="USD"] [data-field="balance"]').waitFor();
    await page.locator('[data-ledger="USD"] tbody tr').first().waitFor();
    await page.locator('[data-no-cash-write]').waitFor();
    expect(await page.getByRole('heading', { name: 'Record cash' }).count()).toBe(0);
    expect(await page.locator('form').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(s.browser.problems).toEqual([]);
  });
});
