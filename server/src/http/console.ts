import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Paths the console never answers: the API's and the service's own keep their JSON 404. */
const NOT_CONSOLE = /^\/(api|docs|health|ready|metrics)(\/|$)/;
/** A missing file (a stale asset, a typo'd image) is a 404, not the console's page. */
const LOOKS_LIKE_FILE = /\/[^/]*\.[A-Za-z0-9]{1,8}$/;
/** `text/html` as a media range of an Accept header, with its parameters (a `q` among them). */
const HTML_RANGE = /^\s*text\/html\s*(;.*)?$/i;
const ZERO_Q = /;\s*q\s*=\s*0(\.0{0,3})?\s*(;|$)/i;

/**
 * The console's pages never run inline script, and may only talk to this origin. Mantine sets inline styles
 * (CSS variables on elements), hence 'unsafe-inline' for styles only.
 */
const CONSOLE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const MISSING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Staff console not built</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>The staff console is not built</h1>
<p>This server has no built console to serve. <code>npm ci</code> at the repository's root builds it
(or <code>npm run build --workspace console</code>); then restart the server.</p>
<p>The API is at <a href="/api/v1/openapi.json">/api/v1</a>; its documentation at <a href="/docs">/docs</a>.</p>
</body></html>
`;

/**
 * The directory of the built console: CONSOLE_DIR, or the `dist` of the @pxs/console workspace package.
 * Undefined when neither exists, so the server still runs (and says so at /) without it.
 */
export function findConsoleDir(configured: string | undefined): string | undefined {
  if (configured) return configured;
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@pxs/console/package.json')), 'dist');
  } catch {
    return undefined;
  }
}

/**
 * Serves the staff console at `/`: its files as they are, and index.html for every other GET outside the API
 * (the console's own client-side routes, e.g. /orders/12) that a browser opens as a page (Accept: text/html), so a
 * reload or a shared link opens the right page.
 */
export async function registerConsole(
  app: FastifyInstance,
  dir: string | undefined,
  configured = false,
): Promise<void> {
  const index = dir ? join(dir, 'index.html') : undefined;
  const built = index !== undefined && existsSync(index);
  // A CONSOLE_DIR set by hand and wrong would otherwise only show as a page at / that says "not built".
  if (configured && !built)
    app.log.warn({ consoleDir: dir }, 'CONSOLE_DIR holds no index.html: the staff console is not served');
  if (built) {
    await app.register(fastifyStatic, {
      root: dir!,
      prefix: '/',
      // A route per built file, found at start: no wildcard that would swallow the API's unknown paths.
      wildcard: false,
      index: false,
      // The build's .br and .gz beside each asset (console/vite.config.ts), sent to a browser that accepts them,
      // with Content-Encoding and Vary: Accept-Encoding; the script is a quarter of its size in gzip.
      preCompressed: true,
      // The source maps stay on the server's disk, for reading a stack trace: they are the console's source. The
      // compressed files are only ever the encoded form of their asset, not files of their own.
      allowedPath: (path) => !/\.(map|gz|br)$/.test(path),
      decorateReply: true,
      setHeaders: (reply, path) => {
        reply.headers(CONSOLE_HEADERS);
        // Vite names assets by their content hash: they never change under the same name.
        reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0];
    // Only a browser's navigation gets the page: an API client that asks for JSON at an unknown path gets the
    // same JSON 404 as under /api, not a 200 with HTML it cannot read.
    if (NOT_CONSOLE.test(path) || LOOKS_LIKE_FILE.test(path) || !acceptsHtml(request.headers.accept))
      return reply.callNotFound();
    if (!built) return missing(reply);
    // The same URL answers HTML or a JSON 404 by Accept: a cache must keep them apart.
    reply.headers(CONSOLE_HEADERS).header('cache-control', 'no-cache').header('vary', 'Accept');
    return reply.sendFile('index.html');
  });
}

/** Whether an Accept header names text/html (not refused with q=0): what a browser sends when it opens a page. */
export function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => HTML_RANGE.test(range) && !ZERO_Q.test(range));
}

function missing(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .type('text/html; charset=utf-8')
    .headers(CONSOLE_HEADERS)
    .header('vary', 'Accept')
    .send(MISSING_PAGE);
}
