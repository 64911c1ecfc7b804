import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { openBrowser, type Browser } from './browser';
import { startDemoServer, type DemoServer } from './server';

export interface Scenario {
  server: DemoServer;
  browser: Browser & { problems: string[] };
  page: Page;
}

/**
 * The usual frame of a scenario file: a real `pxs serve` with the demo (with `env` added), Chromium, and a first
 * tab; all closed after the file. The fields are there once the file's tests run.
 */
export function scenario(env: Record<string, string> = {}, before?: (s: Scenario) => Promise<void>): Scenario {
  const s = {} as Scenario;
  beforeAll(async () => {
    s.server = await startDemoServer(env);
    s.browser = await openBrowser();
    s.page = await s.browser.page();
    await before?.(s);
  });
  afterAll(async () => {
    await s.browser?.close();
    await s.server?.close();
  });
  return s;
}
