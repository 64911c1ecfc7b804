import { request } from 'node:http';
import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn } from './support/browser';
import { sharedScenario } from './support/scenario';

/**
 * How the built console reaches a browser: compressed as the browser accepts (the build's .br, .gz), and a page's
 * code only when that page is opened (a chunk per route).
 */
const s = sharedScenario();

/** A GET from outside a browser with no Accept-Encoding at all: what it gets, and how many bytes. */
function plainGet(url: string): Promise<{ encoding: string | undefined; vary: string | undefined; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, bytes }));
    })
      .on('error', reject)
      .end();
  });
}

const scripts = (answers: Response[]) => answers.filter((r) => new URL(r.url()).pathname.match(/^\/assets\/.+\.js$/));

describe("the console's assets", () => {
  it('reach Chromium in brotli, and a client that accepts no encoding as they are', async () => {
    const answers: Response[] = [];
    s.page.on('response', (r) => answers.push(r));
    await s.page.goto(`${s.server.url}/login`);
    await s.page.getByRole('heading', { name: 'Staff console' }).waitFor();
    const assets = answers.filter((r) => new URL(r.url()).pathname.startsWith('/assets/'));
    expect(scripts(assets).length).toBeGreaterThan(0);
    for (const r of assets) {
      const headers = await r.allHeaders();
      expect(headers['content-encoding'], r.url()).toBe('br');
      expect(headers.vary, r.url()).toMatch(/accept-encoding/i);
    }
    // The entry script (named in index.html), not whichever small shared chunk answered first: a chunk of a few
    // hundred bytes compresses by less than a third.
    const entry = scripts(assets).find((r) => /\/assets\/index-[\w-]+\.js$/.test(new URL(r.url()).pathname));
    expect(entry, 'the entry script').toBeDefined();
    const plain = await plainGet(entry!.url());
    expect(plain.encoding).toBeUndefined();
    expect(plain.vary).toMatch(/accept-encoding/i);
    const compressed = Number((await entry!.allHeaders())['content-length'] ?? (await entry!.body()).length);
    // The figures of the issue: 826 KB as it was against 249 KB in gzip; brotli on the split bundle is smaller still.
    expect(compressed).toBeLessThan(plain.bytes / 3);
    s.page.removeAllListeners('response');
  });

  it("load a page's code when that page is first opened, not before", async () => {
    const loaded: string[] = [];
    s.page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/assets/')) loaded.push(path);
    });
    await logIn(s.page, s.server.url, s.server.logins.superadmin);
    expect(loaded.some((p) => /\/HomePage-[\w-]+\.js$/.test(p))).toBe(true);
    expect(loaded.some((p) => /\/AuditPage-[\w-]+\.js$/.test(p))).toBe(false);
    await s.page.getByRole('link', { name: 'Audit' }).click();
    await s.page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    expect(loaded.some((p) => /\/AuditPage-[\w-]+\.js$/.test(p))).toBe(true);
    expect(s.browser.problems).toEqual([]);
  });
});
