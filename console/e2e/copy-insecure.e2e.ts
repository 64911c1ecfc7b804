import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn } from './support/browser';
import { sharedDemoServer } from './support/scenario';
import type { DemoServer } from './support/server';

/**
 * A key or a secret shown once, on a console opened at a plain-http address other than localhost: the browser has no
 * clipboard there, so "Copy" selects the value (Ctrl+C copies it) and says so, and never claims "Copied".
 * The name pxs.test resolves to 127.0.0.1 in this browser only (127.0.0.2 would not do: Chromium trusts all of
 * 127.0.0.0/8 as it trusts localhost).
 */
const HOST = 'pxs.test';
let server: DemoServer;
let context: BrowserContext;
let profile: string;
let page: Page;
let insecure: string;
const problems: string[] = [];

beforeAll(async () => {
  // The shared demo: this file changes only the keys and the webhook it creates.
  server = sharedDemoServer();
  insecure = server.url.replace('127.0.0.1', HOST);
  profile = await mkdtemp(join(tmpdir(), 'pxs-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
    ],
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of (401|404|400|422|429)/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
});
afterAll(async () => {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  await server?.close();
});

const MESSAGE = "Select and copy it yourself: this address is not secure enough for the browser's clipboard";
const selected = () => page.evaluate(() => window.getSelection()?.toString().trim() ?? '');

async function newKey(name: string) {
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'New key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  return dialog;
}

describe('copying a value shown once', () => {
  it('on an insecure address: selects the new key and says to copy it by hand, never "Copied"', async () => {
    await logIn(page, insecure, server.logins.admin);
    // The premise: this address is not a secure context, so the page has no clipboard.
    await expect(page.evaluate(() => window.isSecureContext)).resolves.toBe(false);
    const dialog = await newKey('Copied by hand');
    const raw = (await dialog.getByTestId('raw-key').innerText()).trim();
    expect(raw).toMatch(/^sk_personal_/);
    await dialog.getByRole('button', { name: 'Copy key' }).click();
    await dialog.getByRole('alert').filter({ hasText: MESSAGE }).waitFor();
    await expect(selected()).resolves.toBe(raw);
    await expect(dialog.getByRole('button', { name: 'Copied' }).count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'I have stored it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  });

  it("on an insecure address: the same for a webhook's new signing secret", async () => {
    const hook = await server.partner('POST', '/webhooks', server.keys.branch, {
      url: 'http://127.0.0.1:8/hook',
      events: ['order.created'],
    });
    expect(hook.status).toBe(201);
    await page.goto(`${insecure}/webhooks/${hook.body.id}`);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the signing secret?' })
      .getByRole('button', { name: 'Rotate' })
      .click();
    const shown = page.getByRole('dialog', { name: 'New signing secret' });
    const secret = (await shown.getByTestId('new-secret').innerText()).trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await shown.getByRole('alert').filter({ hasText: MESSAGE }).waitFor();
    await expect(selected()).resolves.toBe(secret);
    await expect(shown.getByRole('button', { name: 'Copied' }).count()).resolves.toBe(0);
    await shown.getByRole('button', { name: 'Done' }).click();
    expect(problems).toEqual([]);
  });

  it('on localhost (a secure context): copies to the clipboard and says "Copied"', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await logIn(page, server.url, server.logins.admin);
    const dialog = await newKey('Copied by the browser');
    const raw = (await dialog.getByTestId('raw-key').innerText()).trim();
    await dialog.getByRole('button', { name: 'Copy key' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(raw);
    await expect(dialog.getByRole('alert').filter({ hasText: 'Select and copy it yourself' }).count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });
});
