import { defineConfig } from 'vitest/config';
import { unitOnly } from './test/helpers/unit-project.js';

/**
 * `npm test` runs both projects; `npm run test:unit` only the first, which starts no database, server or Redis
 * connection and answers in seconds. Integration files each get their own database, copied from one migrated
 * template per run (test/helpers/pglite-template.ts).
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // Files share a worker's module cache: importing the app afresh for each of ~95 files cost 5 CPU-minutes a
    // pass (import 336 s -> 26 s). Tests keep no state in modules; each file starts its own servers and database.
    isolate: false,
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        plugins: [unitOnly()],
        test: {
          name: 'unit',
          include: ['test/**/*.unit.test.ts'],
          setupFiles: ['test/helpers/no-sockets.ts'],
          // Pure but not instant: the signing and architecture tests run the TypeScript compiler.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.unit.test.ts'],
          // The built CLI (built-cli.ts) is what the tests that start `pxs` processes run.
          globalSetup: ['test/helpers/pglite-template.ts', 'test/helpers/built-cli.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
