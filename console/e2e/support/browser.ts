import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOTS = fileURLToPath(new URL('../../e2e-artifacts/screenshots', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

export interface Browser {
  /** A new tab: its own sessionStorage, so its own login. */
  page(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium driven by playwright-core, headless, with a fresh profile; nothing downloads a browser.
 * Every page records its console errors and uncaught exceptions in `problems`, which the scenarios check.
 */
export async function openBrowser(): Promise<Browser & { problems: string[] }> {
  const profile = await mkdtemp(join(tmpdir(), 'pxs-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 800 },
    // No animations: a screenshot shows the page at rest.
    reducedMotion: 'reduce',
  });
  const problems: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of (401|404|400|422|429)/.test(m.text()))
        problems.push(`console: ${m.text()}`);
    });
    return page;
  };
  let first: Page | undefined = context.pages()[0];
  return {
    problems,
    async page(viewport) {
      const page = first ?? (await context.newPage());
      first = undefined;
      if (viewport) await page.setViewportSize(viewport);
      // A step that waits longer than this has failed: say so well within the test's own timeout.
      page.setDefaultTimeout(15_000);
      return watch(page);
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Writes the page as it looks now to the screenshot folder (CI keeps it as an artefact). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Logs in through the login page, with the keyboard as a person at a counter would, and waits for the home page. */
export async function logIn(page: Page, baseUrl: string, login: { email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('textbox', { name: 'Email' }).fill(login.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(login.password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
}
