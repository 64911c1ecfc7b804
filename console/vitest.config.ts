import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: every end-to-end scenario runs in Debian's Chromium against a real `pxs serve` (the API's types
 * are the SDK's, whose own test holds them to the OpenAPI document): one the run shares (e2e/support/shared-server.ts)
 * or, for a file that needs the demo as seeded or settings of its own, one of the file's (e2e/support/scenario.ts).
 * The browser files run one at a time: each starts a browser, and some a server, on a two-core machine.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/build.ts', 'e2e/support/shared-server.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 60_000,
    // Above the 150 s a loaded machine may need to start pxs serve (e2e/support/server.ts).
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
