import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { openBrowser, type Browser } from './browser';
import { demoServerAt, startDemoServer, type DemoServer } from './server';

export interface Scenario {
  server: DemoServer;
  browser: Browser & { problems: string[] };
  page: Page;
}

/**
 * The usual frame of a scenario file: a real `pxs serve` with the demo (with `env` added) of its own, Chromium, and a
 * first tab; all closed after the file. The fields are there once the file's tests run. For a file that changes
 * what other files read (a rate, an exchange, the demo's keys or roles), counts what it did not make, or needs
 * settings of its own; any other uses `sharedScenario`.
 */
export function scenario(env: Record<string, string> = {}, before?: (s: Scenario) => Promise<void>): Scenario {
  return frame(() => startDemoServer(env), before);
}

/**
 * The same frame on the demo server the run shares (shared-server.ts), started once: for a file that only reads
 * the demo, or changes only what it created itself (its own orders, clients, keys and staff, under names no other
 * file uses), so that it passes whichever files ran before it on that server. Its own Chromium still.
 */
export function sharedScenario(before?: (s: Scenario) => Promise<void>): Scenario {
  return frame(async () => sharedDemoServer(), before);
}

/** The run's shared demo server, for a file that frames itself; closing it leaves it running for the next file. */
export function sharedDemoServer(): DemoServer {
  return demoServerAt(inject('sharedDemo'), async () => undefined);
}

function frame(open: () => Promise<DemoServer>, before?: (s: Scenario) => Promise<void>): Scenario {
  const s = {} as Scenario;
  beforeAll(async () => {
    s.server = await open();
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
