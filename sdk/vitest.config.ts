import { defineConfig } from 'vitest/config';
import { unitOnly } from '../server/test/helpers/unit-project.js';

/**
 * `npm test` runs both projects; `npm run test:unit` only the pure ones. The integration files start the real
 * server from server/test/helpers, each on a database copied from one migrated per run, as the server's do.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        plugins: [unitOnly()],
        test: {
          name: 'unit',
          include: ['test/**/*.unit.test.ts'],
          setupFiles: ['../server/test/helpers/no-sockets.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.unit.test.ts'],
          globalSetup: ['../server/test/helpers/pglite-template.ts'],
        },
      },
    ],
  },
});
