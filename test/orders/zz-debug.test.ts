import { it } from 'vitest';
import { call, startTestServer } from '../helpers/server.js';
import { createWorld } from '../helpers/world.js';
import { orderBody } from './support.js';
it('debug', async () => {
  const server = await startTestServer({ env: { LOG_LEVEL: 'error' } });
  const world = await createWorld(server.db);
  const res = await call(server, 'POST', '/partner/orders', { key: world.keys.branch, body: orderBody(world) });
  console.log(res.status, res.text);
  await server.close();
});
