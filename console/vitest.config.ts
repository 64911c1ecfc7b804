import { defineConfig } from 'vitest/config';

/**
 * `npm test`: the generated types are checked against the OpenAPI document, then every end-to-end scenario
 * runs in Debian's Chromium against a real `pxs serve`. The browser files run one at a time: each starts a
 * server and a browser on a two-core machine.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/build.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 60_000,
    // Above the 150 s a loaded machine may need to start pxs serve (e2e/support/server.ts).
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
