import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The staff console at /: its files, index.html for its client routes, and the API's JSON 404s left as they were. */
let dir: string;
const SCRIPT = `export const rows = [${Array.from({ length: 2000 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];\n`;
let server: TestServer;
let bare: TestServer;
const bareLog: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pxs-console-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>Console</title><div id="root"></div>');
  await writeFile(join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
  await writeFile(join(dir, 'assets', 'app-1a2b3c.js.map'), '{"version":3,"sources":["src/main.tsx"]}');
  // What the console's build writes (vite.config.ts): each asset, and its .gz and .br beside it.
  await writeFile(join(dir, 'assets', 'index-9f8e7d.js'), SCRIPT);
  await writeFile(join(dir, 'assets', 'index-9f8e7d.js.gz'), gzipSync(SCRIPT));
  await writeFile(join(dir, 'assets', 'index-9f8e7d.js.br'), brotliCompressSync(SCRIPT));
  server = await startTestServer({ env: { CONSOLE_DIR: dir } });
  bare = await startTestServer({
    env: { CONSOLE_DIR: join(dir, 'missing') },
    loggerInstance: pino(
      { level: 'warn' },
      {
        write: (line: string) => {
          bareLog.push(line);
        },
      },
    ),
  });
});
afterAll(async () => {
  await server?.close();
  await bare?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (s: TestServer, path: string, init?: RequestInit) => fetch(`${s.url}${path}`, init);
/** What Chromium sends when it opens a page. */
const NAVIGATION = {
  headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8' },
};
const notFound = (method: string, path: string) => ({
  statusCode: 404,
  message: `Route ${method} ${path} not found`,
  error: 'Not Found',
});

describe("GET / and the console's routes", () => {
  it('serves index.html at / and at every client route, never cached, with a strict content policy', async () => {
    for (const path of ['/', '/orders', '/orders/12?tab=history', '/webhooks/0b5c/deliveries']) {
      const res = await get(server, path, NAVIGATION);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('serves the built assets as immutable', async () => {
    const res = await get(server, '/assets/app-1a2b3c.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(await res.text()).toBe('console.log("app")');
  });

  it("keeps the source maps on the server: they are the console's source", async () => {
    const res = await get(server, '/assets/app-1a2b3c.js.map');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('sources');
  });

  it('keeps JSON 404s for unknown API paths, missing files and other methods', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nope'],
      ['GET', '/api/v1'],
      ['GET', '/assets/missing-9z.js'],
      ['GET', '/favicon.ico'],
      ['POST', '/orders'],
      ['DELETE', '/'],
    ]) {
      const res = await get(server, path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual(notFound(method, path));
    }
  });

  it("answers a client that does not ask for HTML with the JSON 404 of every unknown route, not the console's page", async () => {
    const accepts = [
      'application/json',
      '*/*',
      'application/problem+json, application/json;q=0.9',
      'text/html;q=0',
      undefined,
    ];
    for (const path of ['/no-such-thing', '/', '/orders/12']) {
      for (const accept of accepts) {
        const res = await get(server, path, accept === undefined ? {} : { headers: { accept } });
        expect(res.status, `${path} ${accept}`).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toEqual(notFound('GET', path));
      }
    }
    // A browser's navigation to the same unknown path is the console's (its own "not found" page).
    const page = await get(server, '/no-such-thing', NAVIGATION);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect((await get(server, '/no-such-thing', { headers: { accept: 'TEXT/HTML; charset=utf-8' } })).status).toBe(200);
  });

  it('leaves the API, the docs and the operations routes as they were', async () => {
    expect((await get(server, '/health')).status).toBe(200);
    expect(await (await get(server, '/health')).json()).toEqual({ status: 'ok' });
    expect((await get(server, '/api/v1/openapi.json')).headers.get('content-type')).toMatch(/json/);
    expect(await (await get(server, '/docs/', { redirect: 'follow' })).text()).toContain('swagger');
    expect((await get(server, '/api/v1/admin/branches')).status).toBe(401);
  });
});

/** A GET with exactly these headers (fetch would add an Accept-Encoding of its own), and the body as sent. */
function raw(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('compressed assets', () => {
  const CHROMIUM = 'gzip, deflate, br, zstd';

  it("sends the build's brotli file to a browser that accepts it, gzip to one that accepts only that, the file as it is to one that accepts neither", async () => {
    const br = await raw('/assets/index-9f8e7d.js', { 'accept-encoding': CHROMIUM });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.body.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);

    const gz = await raw('/assets/index-9f8e7d.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);

    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const plain = await raw('/assets/index-9f8e7d.js', headers);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      // The same URL has other answers for other Accept-Encodings: a shared cache must keep them apart.
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.body.toString()).toBe(SCRIPT);
    }
  });

  it('serves the compressed files only as the encoding of their asset, never under their own names', async () => {
    for (const path of ['/assets/index-9f8e7d.js.gz', '/assets/index-9f8e7d.js.br']) {
      const res = await raw(path, { 'accept-encoding': CHROMIUM });
      expect(res.status, path).toBe(404);
    }
  });
});

describe('without a built console', () => {
  it('says so at / and at client routes, as a page, instead of a JSON 404', async () => {
    for (const path of ['/', '/orders/3']) {
      const res = await get(bare, path, NAVIGATION);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const text = await res.text();
      expect(text).toContain('The staff console is not built');
      expect(text).toContain('npm ci');
    }
    expect((await get(bare, '/api/v1/nope')).headers.get('content-type')).toMatch(/json/);
    expect((await get(bare, '/', { headers: { accept: 'application/json' } })).headers.get('content-type')).toMatch(
      /json/,
    );
    // A CONSOLE_DIR set by hand and wrong is said at start, not only on the page.
    expect(bareLog.map((l) => JSON.parse(l).msg)).toContain(
      'CONSOLE_DIR holds no index.html: the staff console is not served',
    );
  });
});
