import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A partner's webhook receiver on this machine, answering with `status` until told otherwise. */
export async function startReceiver(status: number) {
  const state = { status, received: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received += 1;
      res.writeHead(state.status, { 'content-type': 'text/plain' }).end(state.status < 300 ? 'ok' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A market rate feed on this machine in the `json` kind's format, serving `rates` until they are changed. */
export async function startRateFeed(rates: Record<string, string>) {
  const state = { rates, reads: 0 };
  const server = createServer((req, res) => {
    req.resume();
    state.reads += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ rates: state.rates }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rates.json`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
