import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The structure of src/, read from its files and their imports (type-only ones included: they couple files as much),
 * as docs/where-things-are.md draws it:
 * - a feature folder holds the standard files and the named parts listed below, nothing else;
 * - SQL (Kysely's query builders, the sql tag) only in repository.ts files and db/;
 * - routes never import a repository, and a service does not re-export one's functions;
 * - a feature imports another only through its service.ts, or a shared module named below with its reason;
 * - arrows run one way: features → db/, http/, auth/; auth/ → db/, http/; db/ and http/ import neither;
 * - no import cycles.
 * Files split by meaning, not by size: there is no byte limit.
 */

/*
 * The shape of a feature folder (docs/where-things-are.md). A resource feature holds only the standard files; an
 * engine or a feature with pure parts names each extra file here, so that a new one is a decision, not a drift.
 */
const STANDARD_FILES = [
  'partner-routes.ts', // under /api/v1/partner, behind an API key
  'admin-routes.ts', // under /api/v1/admin, behind a staff token
  'staff-routes.ts', // under /api/v1 for a signed-in staff user: its session and its own keys
  'public-routes.ts', // outside the API, unauthenticated (the widget's page)
  'schemas.ts',
  'service.ts',
  'repository.ts',
  'presenters.ts',
  'errors.ts',
];
const NAMED_PARTS: Record<string, string[]> = {
  'api-keys': ['issue.ts', 'origins.ts', 'roll.ts'],
  audit: ['types.ts'],
  catalog: [
    'rates-xml.ts',
    'snapshot-bodies.ts',
    'snapshot-build.ts',
    'snapshot-local.ts',
    'snapshot-offers-page.ts',
    'snapshot-reads.ts',
    'snapshot-store.ts',
  ],
  clients: ['rules.ts'],
  delivery: [
    'attempt.ts',
    'claim.ts',
    'listen.ts',
    'outbox.ts',
    'outbound.ts',
    'outcome.ts',
    'recording.ts',
    'sender.ts',
    'signing.ts',
    'sweep.ts',
    'url-guard.ts',
    'worker.ts',
  ],
  events: ['cursor.ts'],
  idempotency: ['key.ts', 'respond.ts'],
  offers: ['amounts.ts', 'pricing.ts', 'repricing.ts'],
  'order-feed': ['cursor.ts', 'feed.ts', 'stream-slots.ts', 'stream.ts', 'visibility.ts'],
  // sandbox-routes.ts: the sandbox's own contract (tag sandbox, 404 outside a sandbox branch), apart from the
  // partner contract every integration relies on.
  // expiry.ts: the payment window's job, which every worker process runs beside the webhook worker.
  orders: ['branch-range.ts', 'expiry.ts', 'pricing.ts', 'references.ts', 'sandbox-routes.ts', 'transitions.ts'],
  pricing: ['decimal.ts', 'estimate.ts', 'market-rate.ts', 'price.ts'],
  // parsers.ts: the four document formats, pure; reader.ts: the guarded GET; poller.ts: the lease and the loop that
  // every worker process runs beside the webhook worker.
  'rate-sources': ['parsers.ts', 'poller.ts', 'reader.ts'],
  staff: ['bootstrap.ts'],
  webhooks: ['events.ts', 'lifecycle.ts'],
  widget: ['demo-page.ts'],
};

/**
 * What a feature may import from another besides its service.ts. Each entry says why; anything else goes through
 * the other feature's service.
 */
const SHARED: { to: RegExp; why: string }[] = [
  {
    to: /^features\/[^/]+\/schemas\.ts$/,
    why: "TypeBox shapes another feature's responses embed (a client in an order, a delivery list)",
  },
  {
    to: /^features\/[^/]+\/presenters\.ts$/,
    why: "pure row-to-body functions, for a body that embeds another feature's resource",
  },
  {
    to: /^features\/delivery\/outbox\.ts$/,
    why: 'enqueue, the one shared write: a change and its webhook events commit together',
  },
  {
    to: /^features\/catalog\/snapshot-local\.ts$/,
    why: 'catalogChanged: the owners of catalogue data mark the snapshot stale; through catalog/service.ts it would be a cycle',
  },
  {
    to: /^features\/idempotency\/respond\.ts$/,
    why: 'the Idempotency-Key wrapper of the create routes of orders, clients and webhooks',
  },
  { to: /^features\/pricing\/[^/]+\.ts$/, why: 'pure decimal arithmetic: no database, no HTTP, nothing to serve' },
];
/** Exact edges that no rule above allows, with the reason they stay. */
const NAMED_EDGES: { from: string; to: string; why: string }[] = [
  {
    from: 'features/catalog/repository.ts',
    to: 'features/exchanges/repository.ts',
    why: "publicSchedule, the one SQL fragment of an exchange's public schedule: the snapshot and the live read cannot drift apart",
  },
];
/** Files outside repositories and db/ that may hold SQL, with the reason. */
const SQL_ELSEWHERE: Record<string, string> = {
  'demo/seed.ts': 'the demo data, written straight into the tables as a migration would',
  'features/delivery/outbox.ts':
    "enqueue and withEvent write a change's webhook events inside the caller's statement or transaction; every feature that changes data imports them, which no repository may be",
  'features/orders/branch-range.ts': 'the id bound of the orders list, a SQL fragment only orders/repository.ts uses',
};
/**
 * Top-level modules any layer may import: configuration types, the log function type, the time limit helper, and the
 * domain error type (features and db/ throw it; only http/ knows what it means in HTTP).
 */
const LEAVES = ['config', 'log.ts', 'time-limit.ts', 'domain-error.ts'];

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
const isRepository = (file: string) => /(^|\/)repository\.ts$/.test(file);
const isRoutes = (file: string) => /(^|\/|-)routes\.ts$/.test(file);
const sourceOf = (file: string) => readFileSync(join(SRC, file), 'utf8');
/** The code of a file without its comments (a comment may name a query without running one). */
const codeOf = (file: string) =>
  sourceOf(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
const SQL =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql\s*(<[^>]*>)?\s*`|\bsql\.(raw|ref|lit|id|join|table|val)\(|CompiledQuery\.raw\(/;
const under = (file: string, ...dirs: string[]) => dirs.some((d) => file.startsWith(`${d}/`));

/** The names of the functions a file declares: function declarations and functions bound to a name, at any depth. */
function declaredFunctions(code: string): string[] {
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name) names.push(node.name.text);
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    )
      names.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('file.ts', code, ts.ScriptTarget.Latest));
  return names;
}
/** The names a row-to-body function goes by (`orderView`, `present`); such a function belongs in presenters.ts. */
const isShaper = (name: string) => /View$/.test(name) || name === 'present';

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
    for (const { from, to } of edges)
      expect(graph.has(to), `${from} imports ${to}, which is not a source file`).toBe(true);
  });

  it('has no cycles', () => {
    expect(cycles(graph).map((loop) => loop.join(' → '))).toEqual([]);
  });

  it('(the cycle finder finds every cycle of a graph that has some)', () => {
    const sample: Graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', []],
      ['e', ['e']],
      ['f', ['a']],
    ]);
    expect(
      cycles(sample)
        .map((loop) => loop.join(' → '))
        .sort(),
    ).toEqual(['a → b → c → a', 'e → e']);
  });

  it('runs one way: db/, http/ and config/ import nothing from auth/ or features/, auth/ nothing from features/', () => {
    const upward = edges.filter(
      ({ from, to }) =>
        (under(from, 'db', 'http', 'config') && under(to, 'auth', 'features')) ||
        (under(from, 'auth') && under(to, 'features')),
    );
    expect(upward.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it('lets a feature import only its own files, db/, http/, auth/ and the leaf modules (config, log, time limit)', () => {
    const outward = edges.filter(
      ({ from, to }) =>
        featureOf(from) !== undefined &&
        featureOf(to) === undefined &&
        !under(to, 'db', 'http', 'auth') &&
        !LEAVES.some((leaf) => to === leaf || to.startsWith(`${leaf}/`)),
    );
    expect(outward.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it('lets a feature reach another only through its service.ts or a shared module named with its reason', () => {
    const reaching = edges.filter(({ from, to }) => {
      const [a, b] = [featureOf(from), featureOf(to)];
      if (a === undefined || b === undefined || a === b) return false;
      if (to === `features/${b}/service.ts`) return false;
      if (SHARED.some((s) => s.to.test(to))) return false;
      return !NAMED_EDGES.some((e) => e.from === from && e.to === to);
    });
    expect(reaching.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it('keeps each repository to its own feature: other features, auth and the CLI go through its service', () => {
    const reaching = edges.filter(
      ({ from, to }) =>
        isRepository(to) &&
        featureOf(from) !== featureOf(to) &&
        !NAMED_EDGES.some((e) => e.from === from && e.to === to),
    );
    expect(reaching.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });

  it("never lets routes import a repository, even their own feature's: routes call services", () => {
    const reaching = edges.filter(({ from, to }) => isRoutes(from) && isRepository(to));
    expect(reaching.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
  });
});

describe('HTTP errors stay at the edge', () => {
  // Self-contained: its own walk of src/ and its own reading of imports.
  const root = resolve(import.meta.dirname, '../src');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  const httpErrors = join(root, 'http/errors.ts');
  const importers = walk(root)
    .filter((path) =>
      ts
        .preProcessFile(readFileSync(path, 'utf8'), true, true)
        .importedFiles.some(
          (i) =>
            i.fileName.startsWith('.') && resolve(dirname(path), i.fileName).replace(/\.js$/, '.ts') === httpErrors,
        ),
    )
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

describe('the files of src/', () => {
  it('hold SQL only in repository.ts files and db/ (and the files named with their reason)', () => {
    const withSql = files.filter(
      (file) => !isRepository(file) && !under(file, 'db') && !(file in SQL_ELSEWHERE) && SQL.test(codeOf(file)),
    );
    expect(withSql).toEqual([]);
    // The check sees what it looks for: repositories hold queries, and the named exceptions still do.
    expect(files.filter((file) => isRepository(file) && SQL.test(codeOf(file))).length).toBeGreaterThan(15);
    for (const file of Object.keys(SQL_ELSEWHERE)) expect(SQL.test(codeOf(file)), file).toBe(true);
  });

  it('(the SQL pattern finds each form of query and ignores comments)', () => {
    const found = (code: string) =>
      SQL.test(code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1'));
    for (const code of [
      "db.selectFrom('orders')",
      "tx.insertInto('audit_log')",
      "db.updateTable('x')",
      "db.deleteFrom('x')",
      'sql`select 1`',
      'sql<number>`count(*)`',
      "sql.ref('e.id')",
      "CompiledQuery.raw('select 1')",
    ]) {
      expect(found(code), code).toBe(true);
    }
    for (const code of [
      "// db.selectFrom('orders')",
      '/* sql`select 1` */',
      'const sqlText = 1;',
      'listOrders(db, scope)',
    ])
      expect(found(code), code).toBe(false);
  });

  it('have services that do not re-export repository functions (a service function says what the feature offers)', () => {
    const reexports = files.filter(
      (file) =>
        file.endsWith('/service.ts') && /^export\s+(?!type\b)[^;]*from\s*'\.\/repository\.js'/m.test(sourceOf(file)),
    );
    expect(reexports).toEqual([]);
  });

  it('give every feature folder the standard files and its named parts only, with no subfolders', () => {
    const features = readdirSync(join(SRC, 'features'));
    expect(features.length).toBeGreaterThan(15);
    const stray: string[] = [];
    for (const feature of features) {
      for (const name of readdirSync(join(SRC, 'features', feature))) {
        if (!STANDARD_FILES.includes(name) && !(NAMED_PARTS[feature] ?? []).includes(name))
          stray.push(`features/${feature}/${name}`);
      }
    }
    expect(stray).toEqual([]);
    // Every named part exists: a list that outlives its files would allow them back unnoticed.
    const missing = Object.entries(NAMED_PARTS).flatMap(([feature, names]) =>
      names
        .filter((name) => !files.includes(`features/${feature}/${name}`))
        .map((name) => `features/${feature}/${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('shape rows into bodies only in presenters.ts: no service or repository declares a *View or present function', () => {
    const shapers = files
      .filter((file) => /(^|\/)(service|repository)\.ts$/.test(file))
      .flatMap((file) =>
        declaredFunctions(sourceOf(file))
          .filter(isShaper)
          .map((name) => `${file}: ${name}`),
      );
    expect(shapers).toEqual([]);
    // The check sees what it looks for: the presenters declare such functions.
    const presented = files
      .filter((file) => file.endsWith('/presenters.ts'))
      .flatMap((file) => declaredFunctions(sourceOf(file)).filter(isShaper));
    expect(presented).toEqual(expect.arrayContaining(['auditView', 'staffView', 'currencyView', 'present']));
  });

  it('(the shaper finder sees declared and bound functions, at any depth, and nothing else)', () => {
    const found = (code: string) => declaredFunctions(code).filter(isShaper);
    expect(found('export function staffView(r: Row) { return { id: r.id }; }')).toEqual(['staffView']);
    expect(found('function present(c: Row) { return c; }')).toEqual(['present']);
    expect(found('export const branchView = (b: Row) => ({ id: b.id });')).toEqual(['branchView']);
    expect(found('const keyView = function (k: Row) { return k; };')).toEqual(['keyView']);
    expect(found('export async function list() { const rowView = (r: Row) => r; return rowView; }')).toEqual([
      'rowView',
    ]);
    expect(found('export type StaffView = ReturnType<typeof staffView>;')).toEqual([]);
    expect(found('const overview = 1; function preview() {} function presentation() {}')).toEqual([]);
    expect(found('// function staffView() {}')).toEqual([]);
  });

  it('have no admin/ feature: each noun owns its back-office routes', () => {
    expect(files.filter((file) => file.startsWith('features/admin/'))).toEqual([]);
  });
});
