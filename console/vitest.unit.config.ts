import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: the console's components as a browser would run them (jsdom), with the network the only
 * thing replaced (test/support/network.ts). Seconds, no server and no browser: the end-to-end suite is vitest.config.ts.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['test/support/setup.ts'],
    // A test takes a second or two alone; on a two-core machine shared with server suites, twenty times that.
    testTimeout: 60_000,
    reporters: ['default'],
  },
});
