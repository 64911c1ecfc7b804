import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPartnerAuth } from '../../src/auth/partner-auth.js';
import { registerStaffAuth } from '../../src/auth/staff-auth.js';
import { findStaffForAuth } from '../../src/features/staff/service.js';
import { partnerRoute, staffRoute } from '../../src/auth/route-access.js';
import { publicRoute } from '../../src/http/route.js';
import { ErrorSchema } from '../../src/http/schemas.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Who may call a route is stated by the route, never left to a default: a staff or partner route that states nothing
 * does not register, so the app does not start; and every route of the running app states it.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const schema = { operationId: 'probe', summary: 'A probe', response: { 200: Type.String() } };

/** An app with one scope of the given kind, holding one route registered with the given options. */
async function scopeWith(kind: 'staff' | 'partner', options: object): Promise<FastifyInstance> {
  const app = Fastify();
  app.addSchema(ErrorSchema);
  await app.register(async (scope) => {
    if (kind === 'staff')
      registerStaffAuth(scope, { tokens: server.ctx.tokens, findStaff: (by) => findStaffForAuth(server.ctx.db, by) });
    else registerPartnerAuth(scope, server.ctx);
    scope.get('/probe', options, async () => 'ok');
  });
  return app;
}

describe('a route that states no access', () => {
  it('does not register in a staff scope, nor does the app start', async () => {
    await expect(scopeWith('staff', { schema })).rejects.toThrow('GET /probe: a staff route states who may call it');
    // The same route stating its roles registers: the refusal above is about the missing statement.
    const app = await scopeWith('staff', staffRoute('admin')({ roles: ['superadmin'], schema }));
    await app.ready();
    await app.close();
  });

  it('does not register in a partner scope, nor does the app start', async () => {
    await expect(scopeWith('partner', { schema })).rejects.toThrow(
      'GET /probe: a partner route states which keys may call it',
    );
    const app = await scopeWith('partner', partnerRoute('catalog')({ keys: 'secret', schema }));
    await app.ready();
    await app.close();
  });

  it('is refused by the helpers themselves (a caller the types do not check)', () => {
    expect(() => staffRoute('admin')({ schema } as never)).toThrow(
      'probe: a staff route states its roles or permission',
    );
    expect(() => partnerRoute('catalog')({ schema } as never)).toThrow(
      'probe: a partner route states which keys may call it',
    );
  });
});

describe('the helpers', () => {
  it("fill the security requirement, the tag and the refusals of the route's kind", () => {
    const staff = staffRoute('admin')({
      permission: 'orders:read',
      errors: [404],
      schema: { ...schema, querystring: Type.Object({}) },
    });
    expect(staff.config.staffAccess).toEqual({
      roles: ['superadmin', 'admin', 'operator'],
      permissions: ['orders:read'],
    });
    expect(staff.schema.security).toEqual([{ staffJwt: [] }]);
    expect(staff.schema.tags).toEqual(['admin']);
    expect(Object.keys(staff.schema.response)).toEqual(['200', '400', '401', '403', '404']);
    // Open to every staff user: nobody is refused, so no 403 is documented.
    expect(
      Object.keys(staffRoute('auth')({ roles: ['superadmin', 'admin', 'operator'], schema }).schema.response),
    ).toEqual(['200', '401']);

    const partner = partnerRoute('public')({ keys: 'any', config: { keyInQuery: true }, schema });
    expect(partner.config).toEqual({ keyInQuery: true, keyAccess: { keys: 'any' } });
    expect(partner.schema.security).toEqual([{ apiKey: [] }, { apiKeyQuery: [] }]);
    expect(Object.keys(partner.schema.response)).toEqual(['200', '401', '403', '429']);

    const open = publicRoute('auth')({ errors: [401], schema });
    expect(open.schema.security).toEqual([]);
    expect(open.config).toEqual({});
    expect(Object.keys(open.schema.response)).toEqual(['200', '401']);
  });
});

describe('the route table', () => {
  const api = () => server.app.routeTable.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'OPTIONS');

  it('has a statement of access on every API route but login and the document', () => {
    expect(api().length).toBeGreaterThan(80);
    expect(
      api()
        .filter((r) => !r.access)
        .map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual(['GET /api/v1/openapi.json', 'POST /api/v1/auth/login']);
  });

  it('states roles on every staff route and keys or a permission on every partner route', () => {
    const partner = api().filter((r) => r.url.startsWith('/api/v1/partner/'));
    const staff = api().filter((r) => !r.url.startsWith('/api/v1/partner/') && r.access);
    expect(partner.length).toBeGreaterThan(25);
    expect(staff.length).toBeGreaterThan(40);
    for (const r of staff)
      expect(r.access, `${r.method} ${r.url}`).toMatchObject({
        roles: expect.any(Array),
        permissions: expect.any(Array),
      });
    for (const r of partner)
      expect(r.access, `${r.method} ${r.url}`).toSatisfy((a: object) => 'keys' in a || 'permission' in a);
  });
});
