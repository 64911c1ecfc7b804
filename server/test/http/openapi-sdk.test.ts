import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * sdk/openapi.json is the one committed copy of the document the console's types (and later the SDK) are generated
 * from. Any route or schema change must regenerate it: `npm run openapi` at the repository's root.
 */
let server: TestServer;
let served: string;

beforeAll(async () => {
  server = await startTestServer();
  served = `${JSON.stringify(await (await fetch(`${server.url}/api/v1/openapi.json`)).json(), null, 2)}\n`;
});
afterAll(() => server?.close());

describe('sdk/openapi.json', () => {
  it('is exactly the document the server serves (run `npm run openapi` at the root after changing the API)', async () => {
    const committed = await readFile(new URL('../../../sdk/openapi.json', import.meta.url), 'utf8');
    expect(committed === served, 'sdk/openapi.json is stale: run `npm run openapi` at the repository root').toBe(true);
  });

  it('names every operation the console added, each with tags and staff security', () => {
    const doc = JSON.parse(served);
    const ops = new Map<string, { method: string; path: string; op: any }>();
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item))
        if (op.operationId) ops.set(op.operationId, { method, path, op });
    }
    const expected: Record<string, string> = {
      getCurrentStaff: 'get /api/v1/auth/me',
      getDashboard: 'get /api/v1/admin/dashboard',
      searchOrders: 'get /api/v1/admin/orders/search',
      getOrderClient: 'get /api/v1/admin/orders/{id}/client',
      streamOrderChanges: 'get /api/v1/admin/orders/stream',
      getLookups: 'get /api/v1/admin/lookups',
      listAdminClients: 'get /api/v1/admin/clients',
      getAdminClient: 'get /api/v1/admin/clients/{id}',
      updateAdminClient: 'patch /api/v1/admin/clients/{id}',
      listBranchApiKeys: 'get /api/v1/admin/api-keys',
      revokeBranchApiKey: 'delete /api/v1/admin/api-keys/{id}',
      getAdminWebhook: 'get /api/v1/admin/webhooks/{id}',
      getAdminDelivery: 'get /api/v1/admin/webhooks/{id}/deliveries/{deliveryId}',
      retryAdminDelivery: 'post /api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/retry',
      rotateAdminWebhookSecret: 'post /api/v1/admin/webhooks/{id}/rotate-secret',
    };
    for (const [id, where] of Object.entries(expected)) {
      const found = ops.get(id);
      expect(found && `${found.method} ${found.path}`, id).toBe(where);
      expect(found!.op.security).toEqual([{ staffJwt: [] }]);
      expect(found!.op.tags.length).toBeGreaterThan(0);
      expect(found!.op.responses['401']).toBeDefined();
    }
    expect(doc.components.schemas.OrderChange.properties.toStatus.enum).toContain('SUCCESS');
    expect(Object.keys(doc.paths['/api/v1/admin/orders/stream'].get.responses['200'].content)).toEqual([
      'text/event-stream',
    ]);
  });
});
