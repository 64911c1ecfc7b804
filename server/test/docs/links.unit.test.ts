import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A clone is all a reader has: the README, docs/ and the SDK's README link only to files in the repository, and
 * each link's file is there (links outside it lead nowhere in a clone).
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const PAGES = [join(ROOT, 'README.md'), join(ROOT, 'sdk', 'README.md'), ...markdownUnder(join(ROOT, 'docs'))];
/** `[text](target)` and `![alt](target)`, the target up to a space or the closing parenthesis. */
const LINK = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

function links(page: string): string[] {
  // Code blocks and spans show commands and JSON, not links.
  const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(LINK)].map((m) => m[1]);
}

describe('the documentation\'s links', () => {
  it('lead only to files inside the repository, each of which exists', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const target of links(page)) {
        if (/^(https?:|mailto:|#)/.test(target)) continue;
        checked++;
        const file = resolve(dirname(page), decodeURIComponent(target.split('#')[0]));
        const inside = !relative(ROOT, file).startsWith('..');
        if (!inside || !existsSync(file)) broken.push(`${relative(ROOT, page)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('name no file outside the repository, linked or not', () => {
    for (const page of PAGES) expect(readFileSync(page, 'utf8'), relative(ROOT, page)).not.toMatch(/\.\.\/shared\b|shared\/spec\//);
  });
});
