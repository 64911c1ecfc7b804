import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../helpers/fixture.js';
import type { TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';

/*
 * Undeclared query parameters (docs/decisions.md): a 400 naming the parameter on every API route, read from
 * the served OpenAPI document so that a new route is covered without being listed here. A fuzzed
 * `GET /admin/api-keys?__proto__=x` once reached the handler as a filter column and gave a 500.
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const gets: { path: string; op: any }[] = [];
/** Query parameters that a security scheme names (rates.xml's `?key=`): the document lists them there, not among the parameters. */
let queryCredentials: Record<string, string> = {};

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, any>>;
    components: any;
  };
  queryCredentials = Object.fromEntries(
    Object.entries(doc.components.securitySchemes as Record<string, any>)
      .filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'query')
      .map(([name, scheme]) => [name, scheme.name]),
  );
  // The API's routes; /health, /ready and /metrics are for probes, which may add parameters of their own.
  for (const [path, item] of Object.entries(doc.paths))
    if (item.get && path.startsWith('/api/v1/')) gets.push({ path, op: item.get });
}, 180_000);
afterAll(async () => {
  await server?.close();
});

const UNDECLARED = ['__proto__', 'constructor', 'toString', 'exchangeID'];

/** A path with its parameters filled by values of the right shape (the query string is checked before any lookup). */
function concrete(path: string, op: any): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const schema = op.parameters?.find((p: any) => p.in === 'path' && p.name === name)?.schema ?? {};
    return schema.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : '1';
  });
}

function credential(op: any): Record<string, string> {
  const scheme = op.security?.[0] ? Object.keys(op.security[0])[0] : undefined;
  if (scheme === 'apiKey') return { authorization: `Bearer ${world.keys.branch}` };
  if (scheme === 'staffJwt') return { authorization: `Bearer ${tokens.superadmin}` };
  return {};
}

/** The query string is written by hand: an object literal with a `__proto__` key would set a prototype instead. */
async function get(path: string, op: any, query: string) {
  const res = await fetch(`${server.url}${concrete(path, op)}${query ? `?${query}` : ''}`, { headers: credential(op) });
  const text = await res.text();
  // The order stream answers 200 and stays open; only its status matters here.
  return {
    status: res.status,
    text,
    body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined,
  };
}

const declared = (op: any): string[] => [
  ...(op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
  ...(op.security ?? [])
    .flatMap((s: Record<string, unknown>) => Object.keys(s))
    .filter((name: string) => name in queryCredentials)
    .map((name: string) => queryCredentials[name]),
];
const isList = (op: any) => declared(op).includes('limit');

describe('query parameters a route does not declare', () => {
  it('are a 400 naming the parameter on every list route, prototype names included', async () => {
    const lists = gets.filter((g) => isList(g.op));
    expect(lists.map((g) => g.path)).toEqual(
      expect.arrayContaining([
        '/api/v1/admin/api-keys',
        '/api/v1/partner/orders',
        '/api/v1/partner/offers',
        '/api/v1/admin/audit',
      ]),
    );
    for (const { path, op } of lists) {
      for (const name of UNDECLARED) {
        const res = await get(path, op, `${encodeURIComponent(name)}=x&limit=5`);
        const where = `GET ${path}?${name}=x → ${res.status}: ${res.text.slice(0, 300)}`;
        expect(res.status, where).toBe(400);
        // Other problems of the same request (a required `q`) are reported beside it.
        expect(res.body.errors[name], where).toBe('notAllowed');
        expect(res.body.message, where).toContain(
          `query parameter ${name} is not supported; use one of: ${declared(op).join(', ')}`,
        );
      }
    }
    console.info(`undeclared query keys: ${lists.length} list routes × ${UNDECLARED.length} names`);
  });

  it('are a 400 on every other GET route too; one that declares none says so', async () => {
    const others = gets.filter((g) => !isList(g.op));
    expect(others.length).toBeGreaterThan(5);
    for (const { path, op } of others) {
      const res = await get(path, op, 'unknown=1');
      const where = `GET ${path}?unknown=1 → ${res.status}: ${res.text.slice(0, 300)}`;
      expect(res.status, where).toBe(400);
      expect(res.body.errors.unknown, where).toBe('notAllowed');
      const names = declared(op);
      expect(res.body.message, where).toContain(
        names.length === 0
          ? 'query parameter unknown is not supported; this operation takes no query parameters'
          : `query parameter unknown is not supported; use one of: ${names.join(', ')}`,
      );
    }
  });

  it('leave declared parameters working: the admin key list still filters by its own', async () => {
    const res = await fetch(`${server.url}/api/v1/admin/api-keys?type=public&isActive=true&limit=100`, {
      headers: { authorization: `Bearer ${tokens.superadmin}` },
    });
    const body = (await res.json()) as { data: { type: string; isActive: boolean }[] };
    expect(res.status).toBe(200);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.every((k) => k.type === 'public' && k.isActive)).toBe(true);
  });

  it('are refused on writes as well, before anything is written', async () => {
    const before = await server.db.selectFrom('clients').select('id').execute();
    const res = await fetch(`${server.url}/api/v1/partner/clients?constructor=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.keys.branch}`, 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Ana', lastName: 'Silva', email: 'ana.q@example.com', phone: '+351912345670' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: unknown }).errors).toEqual({ constructor: 'notAllowed' });
    expect(await server.db.selectFrom('clients').select('id').execute()).toHaveLength(before.length);
  });
});
