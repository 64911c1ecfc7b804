import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/** `npm run dev` proxies the API to a `pxs serve` on :3000, so the console can be worked on with hot reload. */
export default defineConfig({
  plugins: [
    react(),
    // A .gz and a .br beside each text asset, made once here at the highest levels rather than by the server on
    // every request: pxs serve sends the one a browser accepts (@fastify/static's preCompressed, http/console.ts).
    // The source maps stay uncompressed: they are never served.
    compression({
      include: /\.(js|css|html|svg|json)$/,
      algorithms: ['gzip', 'brotliCompress'],
      skipIfLargerOrEqual: true,
    }),
  ],
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Mantine and React make one chunk of ~500 KB before compression; the console is an internal tool.
    chunkSizeWarningLimit: 1500,
    // Maps are built for debugging a report from production, but the bundle does not point to them (docs/console.md).
    sourcemap: 'hidden',
    rollupOptions: {
      // A feature's index.ts only re-exports (test/architecture.test.ts holds it to that). Said so, the bundler
      // follows each name to its module: a page's chunk gets the parts it uses, not every part its features export
      // (Home would otherwise load the order page's panels and the webhook page's dialogs).
      treeshake: { moduleSideEffects: (id) => !/\/src\/features\/[^/]+\/index\.ts$/.test(id) },
    },
  },
});
