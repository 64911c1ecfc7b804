import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { INT4_MAX } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { DEMO_ICON, DEMO_ICON_PATH, demoPage, PUBLIC_KEY_SHAPE } from './demo-page.js';

/** The script is server/widget/widget.js, found from src/ (tests) and from dist/src/ (the built service). */
function readWidget(): string {
  for (const relative of ['../../../widget/widget.js', '../../../../widget/widget.js']) {
    const path = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error('server/widget/widget.js is missing');
}

export interface WidgetOptions {
  /** The demo branch's public key when this process seeded the demo (it is stored hashed, so only then known). */
  demoPublicKey?: string;
}

/**
 * The embeddable rates widget at a versioned path (a change that breaks embedding pages gets /widget/v2/), and
 * its demo page. Neither is part of the API: both are hidden from the OpenAPI document.
 */
export function widgetRoutes(options: WidgetOptions) {
  const script = readWidget();
  return async function routes(app: App) {
    app.get('/widget/v1/widget.js', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        // Pages that isolate themselves (Cross-Origin-Embedder-Policy) may still load it.
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('x-content-type-options', 'nosniff')
        .send(script),
    );

    app.get(DEMO_ICON_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .send(DEMO_ICON),
    );

    app.get(
      '/widget/demo',
      {
        schema: {
          hide: true,
          querystring: {
            type: 'object',
            properties: {
              key: { type: 'string', maxLength: 100 },
              exchangeId: { type: 'integer', minimum: 1, maximum: INT4_MAX },
              lang: { type: 'string', pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$' },
            },
          },
        },
      },
      async (request, reply) => {
        const query = request.query as { key?: string; exchangeId?: number; lang?: string };
        const key = query.key !== undefined && PUBLIC_KEY_SHAPE.test(query.key) ? query.key : options.demoPublicKey;
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header(
            'content-security-policy',
            "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
          )
          .header('x-content-type-options', 'nosniff')
          .send(demoPage({ key, exchangeId: query.exchangeId, lang: query.lang ?? 'en' }));
      },
    );
  };
}
