import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let doc: any;

beforeAll(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/api/v1/openapi.json`);
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(() => server?.close());

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, version 1.0.0', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('describes every route the server has', () => {
    const documented = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const routes = server.app.routeTable
      .filter((r) => !r.hidden)
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(8);
    for (const route of routes) expect(documented, route).toContain(route);
  });

  // Generated clients name their methods after operationId: every route added later needs one, unique and camelCase.
  it('gives every operation (webhooks included) a unique camelCase operationId and a security requirement', () => {
    const seen = new Map<string, string>();
    const missing: string[] = [];
    const operations = [
      ...Object.entries<Record<string, any>>(doc.paths),
      ...Object.entries<Record<string, any>>(doc.webhooks ?? {}),
    ];
    for (const [path, item] of operations) {
      for (const [method, op] of Object.entries<any>(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        if (typeof op.operationId !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId))
          missing.push(`${where}: operationId ${op.operationId}`);
        else if (seen.has(op.operationId))
          missing.push(`${where}: operationId ${op.operationId} already used by ${seen.get(op.operationId)}`);
        else seen.set(op.operationId, where);
        if (!Array.isArray(op.security)) missing.push(`${where}: no security (use [] for an unauthenticated route)`);
      }
    }
    expect(missing).toEqual([]);
    expect(seen.size).toBeGreaterThan(50);
    expect(seen.get('createOrder')).toBe('POST /api/v1/partner/orders');
  });

  it('describes each webhook event with a schema whose `event` has that one value', () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'offer.updated',
      'order.cancelled',
      'order.created',
      'order.status_changed',
    ]);
    for (const [event, item] of Object.entries<any>(doc.webhooks)) {
      const ref = item.post.requestBody.content['application/json'].schema.$ref as string;
      const schema = doc.components.schemas[ref.replace('#/components/schemas/', '')];
      expect(schema.properties.event.enum, event).toEqual([event]);
    }
  });

  it('declares the error responses and security of partner routes', () => {
    const estimate = doc.paths['/api/v1/partner/public/estimate'].post;
    expect(Object.keys(estimate.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '429']));
    expect(estimate.security).toEqual([{ apiKey: [] }]);
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it('has no anyOf or oneOf in a response: the serializer would run an Ajv validation per value', () => {
    const found: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node !== 'object' || node === null) return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'anyOf' || k === 'oneOf') found.push(path);
        walk(v, `${path}/${k}`);
      }
    };
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) walk(op.responses, `${method} ${path}`);
    }
    walk(doc.components.schemas, 'components');
    expect(found).toEqual([]);
    const order = doc.paths['/api/v1/partner/orders/{id}'].get.responses['200'].content['application/json'].schema;
    expect(order.properties.comment.type).toEqual(['string', 'null']);
    expect(order.properties.status).toMatchObject({
      type: 'string',
      enum: expect.arrayContaining(['ORDERINIT', 'CANCEL']),
    });
  });
});

describe('/docs', () => {
  it('renders the documentation page', async () => {
    const res = await fetch(`${server.url}/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
    // Only its own scripts, and requests only to this origin ("Try it out" carries keys): console/e2e/docs.e2e.ts runs it.
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self';.*connect-src 'self'/);
  });
});
