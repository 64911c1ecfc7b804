import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, openBrowser, screenshot, type Browser } from './support/browser';
import { demoCatalog, partnerOrder } from './support/demo';
import { startReceiver } from './support/receiver';
import { startDemoServer, type DemoServer } from './support/server';

/** A partner's receiver fails: the admin sees each failed attempt, and after the fix, a retry delivers. */
let server: DemoServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser & { problems: string[] };
let page: Page;

beforeAll(async () => {
  receiver = await startReceiver(500);
  // One retry, 200 ms after the first attempt: the delivery fails for good within a second.
  server = await startDemoServer({ WEBHOOK_MAX_RETRIES: '1', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_POLL_MS: '100' });
  browser = await openBrowser();
  page = await browser.page();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

const until = async (check: () => boolean, what: string) => {
  for (const end = Date.now() + 15_000; !check();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('a webhook whose receiver fails', () => {
  it('shows the failed attempts with their status; after the receiver recovers, retry delivers and the log shows it', async () => {
    const hook = await server.partner('POST', '/webhooks', server.keys.branch, {
      url: receiver.url,
      events: ['order.created'],
    });
    expect(hook.status).toBe(201);
    const catalog = await demoCatalog(server);
    const order = await partnerOrder(server, {
      cashbox: catalog.central,
      from: catalog.currency('USD'),
      to: catalog.currency('EUR'),
      amount: 100,
    });
    await until(() => receiver.state.received >= 2, 'two attempts');
    // The receiver counts the second attempt before the worker records its failure: wait for the service to have it,
    // or the pages below may show "1 failed in a row".
    await expect
      .poll(async () => (await server.partner('GET', `/webhooks/${hook.body.id}`, server.keys.branch)).body.failCount, {
        timeout: 15_000,
      })
      .toBe(2);

    await logIn(page, server.url, server.logins.admin);
    await page.getByRole('region', { name: 'Webhooks in trouble' }).getByRole('link', { name: receiver.url }).waitFor();
    await screenshot(page, 'home');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const listed = page.locator(`[data-webhook-id="${hook.body.id}"]`);
    await listed.locator('[data-health="failing"]').waitFor();
    await expect(listed.innerText()).resolves.toMatch(/2 failed in a row/i);
    await screenshot(page, 'webhooks');

    await listed.getByRole('link', { name: receiver.url }).click();
    const log = page.getByRole('table', { name: 'Deliveries' });
    await log.getByText('failed').waitFor();
    // Each row names its order: a log of many order.created rows can be told apart.
    await log.getByRole('cell', { name: `order #${order.id}`, exact: true }).waitFor();
    await log.getByRole('button', { name: /^Delivery order\.created/ }).click();
    const drawer = page.getByRole('dialog', { name: 'Delivery' });
    await drawer.getByRole('button', { name: 'Close' }).waitFor();
    const attempts = drawer.getByRole('table', { name: 'Attempts' });
    await attempts.locator('[data-attempt="2"]').waitFor();
    expect(
      await attempts
        .locator('[data-attempt]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-response-status'))),
    ).toEqual(['500', '500']);
    await expect(attempts.innerText()).resolves.toContain('receiver is down');
    await expect(attempts.innerText()).resolves.toMatch(/\d+ ms/);
    await screenshot(page, 'webhook-delivery-failed');

    receiver.state.status = 200;
    await drawer.getByRole('button', { name: 'Retry now' }).click();
    await drawer.locator('[data-delivery-status="succeeded"]').waitFor({ timeout: 15_000 });
    await attempts.locator('[data-attempt="3"][data-response-status="200"]').waitFor();
    await screenshot(page, 'webhook-delivery');
    await page.keyboard.press('Escape');
    await log.getByText('succeeded').waitFor();
    expect(receiver.state.received).toBe(3);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const ask = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await ask.getByRole('combobox', { name: 'Keep the old secret signing for' }).click();
    await page.getByRole('option', { name: '1 hour' }).click();
    await ask.getByRole('button', { name: 'Rotate' }).click();
    const shown = page.getByRole('dialog', { name: 'New signing secret' });
    await expect(shown.getByTestId('new-secret').innerText()).resolves.toMatch(/^[0-9a-f]{64}$/);
    await expect(shown.innerText()).resolves.toMatch(/old secret keeps signing until/);
    await screenshot(page, 'webhook-rotated');
    await page.keyboard.press('Escape');
    await expect(shown.getByTestId('new-secret').isVisible()).resolves.toBe(true);
    await expect(shown.getByRole('button', { name: 'Close' }).count()).resolves.toBe(0);
    await shown.getByRole('button', { name: 'Done' }).click();
    expect(browser.problems).toEqual([]);
  });

  it('is stopped by staff: deactivated (an order afterwards makes no delivery), then deleted after a confirmation naming its URL', async () => {
    const second = await startReceiver(200);
    try {
      const url = `${second.url}/offboarded`;
      const hook = await server.partner('POST', '/webhooks', server.keys.branch, { url, events: ['order.created'] });
      expect(hook.status).toBe(201);
      const deliveries = async () =>
        (await server.partner('GET', `/webhooks/${hook.body.id}/deliveries`, server.keys.branch)).body.meta.total;

      await page.goto(`${server.url}/webhooks/${hook.body.id}`);
      await page.locator('[data-health="ok"]').waitFor();
      await page.getByRole('button', { name: 'Deactivate' }).click();
      await page.locator('[data-health="inactive"]').waitFor();
      await page.getByRole('button', { name: 'Reactivate' }).waitFor();
      await expect
        .poll(
          async () => (await server.partner('GET', `/webhooks/${hook.body.id}`, server.keys.branch)).body.isActive,
          { timeout: 15_000 },
        )
        .toBe(false);
      const catalog = await demoCatalog(server);
      await partnerOrder(server, {
        cashbox: catalog.central,
        from: catalog.currency('USD'),
        to: catalog.currency('EUR'),
        amount: 100,
      });
      // The outbox writes an order's deliveries in the order's own statement: none now means none ever.
      expect(await deliveries()).toBe(0);
      await screenshot(page, 'webhook-deactivated');

      await page.getByRole('button', { name: 'Delete' }).click();
      const ask = page.getByRole('dialog', { name: 'Delete this webhook?' });
      await ask.getByText(url, { exact: true }).waitFor();
      await screenshot(page, 'webhook-delete-confirm');
      await ask.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(/\/webhooks$/, { timeout: 15_000 });
      // The list has loaded once the first test's webhook shows; the deleted one is not in it.
      await page
        .getByRole('table', { name: 'Webhooks' })
        .getByRole('link', { name: receiver.url, exact: true })
        .waitFor();
      await expect(
        page.getByRole('table', { name: 'Webhooks' }).getByRole('link', { name: url }).count(),
      ).resolves.toBe(0);
      await expect
        .poll(async () => (await server.partner('GET', `/webhooks/${hook.body.id}`, server.keys.branch)).status, {
          timeout: 15_000,
        })
        .toBe(404);
      expect(second.state.received).toBe(0);
      expect(browser.problems).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
