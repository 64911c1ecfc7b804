import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core's own bundle, put into the page as it is: the console's Content-Security-Policy (script-src 'self') refuses
// an injected <script>, and evaluate() runs it as the browser's developer tools would.
const AXE_SOURCE: string = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** The WCAG 2.1 A and AA rules, and axe's best practices (an empty table header among them). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * What axe-core finds on the page as it is now that WCAG 2.1 A/AA forbids outright (serious or critical), and every
 * empty table header (a minor best practice, but the console had eight), each as "rule: node (why)", so that a
 * failure says which and where.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            o: object,
          ): Promise<{
            violations: { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string }[] }[];
          }>;
        };
      }
    ).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }))
      .violations;
  }, TAGS);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'empty-table-header')
    .flatMap((v) =>
      v.nodes.map(
        (n) => `${v.id}: ${n.target.join(' ')} (${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 160)})`,
      ),
    );
}

/** WCAG's contrast ratio of two CSS rgb()/rgba() colours as getComputedStyle gives them. */
export function contrastRatio(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? [])
      .slice(0, 3)
      .map((x) => Number(x) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
