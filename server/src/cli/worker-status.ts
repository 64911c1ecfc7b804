import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from '../http/metrics.js';

/**
 * What a separate `pxs worker` shows its operator (WORKER_PORT): GET /health while it runs, and GET /metrics, its
 * own registry: the deliveries, their latency and lag, and the queue depth are counted in the worker, so an API
 * started with --no-worker has none of them to show.
 */
export async function serveWorkerStatus(metrics: Metrics, host: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') return response.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (path === '/health') return response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    if (path !== '/metrics') return response.writeHead(404, { 'content-type': 'application/json' }).end('{"statusCode":404,"message":"Not found"}');
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => { throw err; })]);
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}
