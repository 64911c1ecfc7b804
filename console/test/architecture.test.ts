import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The console's layout, read from its import graph: features/<x>/{api,components,hooks} behind an index, pages that
 * compose features through that index, shared lib/ and components/ that know no feature, and the API called only
 * from a feature's api/ folder (or lib/, which holds the client and who is logged in).
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Each file's relative imports (static and dynamic), as paths under src/. */
const FILES = sources(SRC).map((path) => {
  const text = readFileSync(path, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => m[1]!);
  return { file: relative(SRC, path), text, imports: specifiers.map((s) => relative(SRC, resolve(dirname(path), s))) };
});

const area = (path: string) => path.split('/')[0]!;
const featureOf = (path: string) => (path.startsWith('features/') ? path.split('/')[1]! : null);

describe("the console's layout", () => {
  it('has features made of api/, components/ and hooks/ behind an index, with a key factory for their queries', () => {
    const features = readdirSync(join(SRC, 'features'));
    expect(features.length).toBeGreaterThanOrEqual(12);
    for (const feature of features) {
      const entries = readdirSync(join(SRC, 'features', feature));
      expect(entries, feature).toContain('index.ts');
      expect(
        entries.filter((e) => e !== 'index.ts').every((e) => ['api', 'components', 'hooks'].includes(e)),
        `${feature}: ${entries.join(', ')}`,
      ).toBe(true);
      const queries = FILES.some(({ file, text }) => featureOf(file) === feature && text.includes('queryKey'));
      if (queries)
        expect(readdirSync(join(SRC, 'features', feature, 'api')), `${feature}'s key factory`).toContain('keys.ts');
    }
  });

  it('has indexes that only re-export, which the build counts on to give each page only the parts it uses', () => {
    const indexes = FILES.filter(({ file }) => /^features\/[^/]+\/index\.ts$/.test(file));
    expect(indexes.length).toBeGreaterThanOrEqual(12);
    for (const { file, text } of indexes) {
      const statements = text
        .split(/;\s*\n/)
        .map((l) => l.trim())
        .filter(Boolean);
      expect(
        statements.filter((l) => !/^export (type )?\{[^}]*\} from '\.\/[\w/.-]+'$/.test(l)),
        file,
      ).toEqual([]);
    }
    expect(readFileSync(resolve(SRC, '../vite.config.ts'), 'utf8')).toContain('moduleSideEffects');
  });

  it('lets a feature or a page reach another feature only through its index', () => {
    const wrong = FILES.flatMap(({ file, imports }) =>
      imports
        .filter(
          (to) => featureOf(to) !== null && featureOf(to) !== featureOf(file) && to !== `features/${featureOf(to)}`,
        )
        .map((to) => `${file} → ${to}`),
    );
    expect(wrong).toEqual([]);
  });

  it('keeps lib/ and components/ free of features and pages, and pages apart from each other', () => {
    const wrong = FILES.flatMap(({ file, imports }) =>
      imports
        .filter(
          (to) =>
            (['lib', 'components'].includes(area(file)) && ['features', 'pages'].includes(area(to))) ||
            (area(file) === 'pages' && area(to) === 'pages') ||
            (area(file) === 'features' && ['pages', 'app'].includes(area(to))),
        )
        .map((to) => `${file} → ${to}`),
    );
    expect(wrong).toEqual([]);
  });

  it("calls the API only from a feature's api/ folder or lib/", () => {
    const callers = FILES.filter(({ imports }) => imports.includes('lib/api/client')).map(({ file }) => file);
    expect(callers.length).toBeGreaterThan(10);
    expect(callers.filter((f) => !/^features\/[^/]+\/api\//.test(f) && !f.startsWith('lib/'))).toEqual([]);
  });

  it("names every query through a feature's key factory, never a literal array", () => {
    const literal = FILES.filter(({ text }) => /queryKey:\s*\[/.test(text) || /useSave\([^)]*\[\[/.test(text)).map(
      ({ file }) => file,
    );
    expect(literal).toEqual([]);
  });

  it('loads every page behind the login lazily, as its own chunk', () => {
    const routes = FILES.find(({ file }) => file === 'app/routes.tsx')!;
    const eager = [...routes.text.matchAll(/^import [^;]*? from '(\.\.\/pages\/[^']+)'/gm)].map((m) => m[1]);
    expect(eager).toEqual(['../pages/login/LoginPage']);
    const lazy = [...routes.text.matchAll(/lazy=\{\(\)\s*=>\s*import\('(\.\.\/pages\/[^']+)'\)/g)].map((m) => m[1]);
    const pages = FILES.filter(
      ({ file }) => /^pages\/.+Page\.tsx$/.test(file) && file !== 'pages/login/LoginPage.tsx',
    ).map(({ file }) => `../${file.replace(/\.tsx$/, '')}`);
    expect(new Set(lazy)).toEqual(new Set(pages));
  });
});
