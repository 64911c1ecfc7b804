import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/key-format.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, headers: res.headers, text: await res.text() };
};

describe("the widget's script", () => {
  it('is served at its versioned path as JavaScript that any page may load, small and without a framework', async () => {
    const res = await get('/widget/v1/widget.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.text.length).toBeLessThan(12_000);
    expect(res.text).not.toMatch(/\bimport\b|\brequire\(/);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- compiles the served script to prove it parses; never runs it
    expect(() => new Function(res.text)).not.toThrow();
    // Money is never turned into a float to compute with: no parseFloat, Number() only for the exchange id.
    expect(res.text).not.toMatch(/parseFloat|toFixed|Math\./);
  });

  it('has no other version and is not in the OpenAPI document', async () => {
    expect((await get('/widget/v2/widget.js')).status).toBe(404);
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/widget'))).toEqual([]);
  });
});

describe('the demo page', () => {
  it('names its own icon, which is served: a browser asks for none that is missing (/favicon.ico was a 404)', async () => {
    const page = await get('/widget/demo');
    const href = /<link rel="icon" href="([^"]+)"/.exec(page.text)?.[1];
    expect(href).toBeDefined();
    const icon = await get(href!);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(icon.text).toMatch(/^<svg /);
  });

  it('without a known demo key, asks for the public key printed at first start', async () => {
    const res = await get('/widget/demo');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.text).toContain('<input name="key"');
    expect(res.text).not.toContain('<script src="/widget/v1/widget.js"');
  });

  it('embeds the widget with a public key given in ?key=, and ignores anything else there', async () => {
    const key = generateApiKey('public');
    const res = await get(`/widget/demo?key=${key}&exchangeId=2&lang=de-DE`);
    expect(res.text).toContain(
      `<script src="/widget/v1/widget.js" data-key="${key}" data-exchange-id="2" async></script>`,
    );
    expect(res.text).toContain('<html lang="de-DE">');
    for (const bad of [generateApiKey('branch'), '"><script>alert(1)</script>', 'pk_short']) {
      const page = await get(`/widget/demo?key=${encodeURIComponent(bad)}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain(bad);
      expect(page.text).not.toContain('<script src="/widget/v1/widget.js"');
    }
    expect((await get('/widget/demo?lang=%22%3E%3Cscript%3E')).status).toBe(400);
  });
});
