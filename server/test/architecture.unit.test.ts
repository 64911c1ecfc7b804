import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The structure of src/, read from its imports (type-only ones included: they couple files as much):
 * - no import cycles;
 * - db/ and http/ import nothing from auth/ or features/, and auth/ nothing from features/ (arrows run one way);
 * - a feature's repository is imported only by files of its own feature: others go through its service.
 * Files split by meaning, not by size: there is no byte limit.
 */

const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((path) => relative(SRC, path));

/** Every relative import of a file (static, type-only, re-export or dynamic), as paths under src/. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(SRC, resolve(SRC, dirname(file), spec)).replace(/\.js$/, '.ts'));
}

const graph = new Map(files.map((file) => [file, importsOf(file)]));
const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));

/** features/<name>/… → <name>; anything else → undefined. */
const featureOf = (file: string) => /^features\/([^/]+)\//.exec(file)?.[1];
const isRepository = (file: string) => /(^|\/|-)repository\.ts$/.test(file);
const under = (file: string, ...dirs: string[]) => dirs.some((d) => file.startsWith(`${d}/`));

type Graph = Map<string, string[]>;

/** Each cycle once, as the files along it (Tarjan's strongly connected components, then one loop in each). */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(loopWithin(graph, new Set(component), v));
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

function loopWithin(graph: Graph, component: Set<string>, start: string): string[] {
  const path = [start];
  const seen = new Set(path);
  for (let at = start; ;) {
    const step = graph.get(at)!.find((w) => component.has(w) && (w === start || !seen.has(w)))!;
    if (step === start) return [...path, start];
    path.push(step);
    seen.add(step);
    at = step;
  }
}

describe('the import graph of src/', () => {
  it('is read from every source file (a check that finds no imports would pass for nothing)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: 'app.ts', to: 'http/error-handler.ts' });
    expect(edges).toContainEqual({ from: 'features/orders/service.ts', to: 'features/delivery/outbox.ts' });
    for (const { from, to } of edges) expect(graph.has(to), `${from} imports ${to}, which is not a source file`).toBe(true);
  });

  it('has no cycles', () => {
    expect(cycles(graph).map((loop) => loop.join(' → '))).toEqual([]);
  });

  it('(the cycle finder finds every cycle of a graph that has some)', () => {
    const sample: Graph = new Map([['a', ['b']], ['b', ['c', 'd']], ['c', ['a']], ['d', []], ['e', ['e']], ['f', ['a']]]);
    expect(cycles(sample).map((loop) => loop.join(' → ')).sort()).toEqual(['a → b → c → a', 'e → e']);
  });

  it('runs one way: db/ and http/ import nothing from auth/ or features/, auth/ nothing from features/', () => {
    const upward = edges.filter(({ from, to }) =>
      (under(from, 'db', 'http') && under(to, 'auth', 'features')) || (under(from, 'auth') && under(to, 'features')));
    expect(upward.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it('keeps each repository to its own feature: other features, auth and the CLI go through its service', () => {
    const reaching = edges.filter(({ from, to }) => isRepository(to) && featureOf(from) !== featureOf(to));
    expect(reaching.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });
});

describe('HTTP errors stay at the edge', () => {
  // Self-contained: its own walk of src/ and its own reading of imports.
  const root = resolve(import.meta.dirname, '../src');
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []);
  const httpErrors = join(root, 'http/errors.ts');
  const importers = walk(root).filter((path) => ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles
    .some((i) => i.fileName.startsWith('.') && resolve(dirname(path), i.fileName).replace(/\.js$/, '.ts') === httpErrors))
    .map((path) => relative(root, path));
  /**
   * Routes, and auth/ (the hooks and preHandlers that refuse a request before a route runs: a missing key or
   * token, a forbidden origin, an exhausted rate limit are HTTP refusals, with headers). Services and pure code
   * throw their feature's domain errors (errors.ts), which the error handler's table turns into HTTP.
   */
  const edge = (file: string) => file.startsWith('http/') || file.startsWith('auth/') || file.endsWith('routes.ts');

  it('no file outside http/, auth/ and routes files imports the HTTP error constructors (http/errors.ts)', () => {
    expect(importers.some(edge), 'the imports of http/errors.ts were not found at all').toBe(true);
    expect(importers.filter((file) => !edge(file))).toEqual([]);
  });
});
