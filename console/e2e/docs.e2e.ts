import { describe, expect, it } from 'vitest';
import { sharedScenario } from './support/scenario';

/**
 * The API reference at /docs (Swagger UI) under its Content-Security-Policy: it must still render and run
 * "Try it out" against this origin, and the browser must report no refused script, style or request.
 */
const s = sharedScenario();

describe('/docs', () => {
  it('renders under its Content-Security-Policy and runs "Try it out" against this origin', async () => {
    const violations: string[] = [];
    s.page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    const res = await s.page.goto(`${s.server.url}/docs/`);
    expect(res?.status()).toBe(200);
    const csp = await res!.headerValue('content-security-policy');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");

    const health = s.page.locator('#operations-operations-getHealth');
    await health.locator('.opblock-summary').click();
    // tryItOutEnabled: the operation opens ready to send.
    await health.getByRole('button', { name: 'Execute' }).click();
    await expect(health.locator('.live-responses-table tbody .response-col_status').first().innerText()).resolves.toBe(
      '200',
    );
    await expect(
      health.locator('.live-responses-table tbody .response-col_description pre').first().innerText(),
    ).resolves.toContain('"status": "ok"');

    // The online validator's badge would load an image from validator.swagger.io: it is off.
    expect(await s.page.locator('img[src*="validator.swagger.io"]').count()).toBe(0);
    expect(violations).toEqual([]);
    expect(s.browser.problems).toEqual([]);
  });
});
