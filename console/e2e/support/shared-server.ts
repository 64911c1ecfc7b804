import type { TestProject } from 'vitest/node';
import { startDemoServer, type DemoAddress } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedDemo: DemoAddress;
  }
}

/**
 * vitest's global setup: the one `pxs serve` with the demo that the files written with `sharedScenario` share. Its
 * start (migrations and the demo's seed) was most of the suite's time when every file paid it: about 9 s of CPU,
 * 15 to 25 s on a loaded machine, a file. It starts after build.ts, which builds the console it serves.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startDemoServer();
  project.provide('sharedDemo', { url: server.url, keys: server.keys, logins: server.logins });
  return () => server.close();
}
