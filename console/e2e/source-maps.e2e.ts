import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_DIST } from './support/server';
import { sharedScenario } from './support/scenario';

/** The console's source maps are built (to read a stack trace from production) but neither named by the bundle nor served. */
const s = sharedScenario();

describe('the served console', () => {
  it('points to no source map from its scripts and styles, and serves none', async () => {
    await s.page.goto(`${s.server.url}/login`);
    await s.page.getByRole('heading', { name: 'Staff console' }).waitFor();
    const assets = await s.page.evaluate(() => [
      ...[...document.querySelectorAll('script[src]')].map((e) => (e as HTMLScriptElement).src),
      ...[...document.querySelectorAll('link[rel="stylesheet"], link[rel="modulepreload"]')].map(
        (e) => (e as HTMLLinkElement).href,
      ),
    ]);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    for (const url of assets) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('sourcemap') ?? res.headers.get('x-sourcemap'), url).toBeNull();
      expect(await res.text(), url).not.toMatch(/[#@] sourceMappingURL=/);
      if (url.endsWith('.js')) expect((await fetch(`${url}.map`)).status, `${url}.map`).toBe(404);
    }
    expect(readdirSync(join(CONSOLE_DIST, 'assets')).some((f) => f.endsWith('.js.map'))).toBe(true);
    expect(s.browser.problems).toEqual([]);
  });
});
