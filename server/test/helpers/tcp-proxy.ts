import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Closes the listener and destroys every relayed connection, as a network cut or a failover does. */
  cut(): Promise<void>;
  /**
   * Stops relaying on the connections already open, without closing them, as a cut that sends no reset does (a
   * dropped route, a dead peer): their ends see nothing until they write and wait for an answer. New connections
   * are relayed.
   */
  silence(): void;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay to `host:port` on an ephemeral local port, that a test can cut and restore. */
export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let server: Server | undefined;
  let listenPort = 0;
  const open = async () => {
    const s = createServer((client) => {
      const upstream = createConnection(port, host);
      const pair: [Socket, Socket] = [client, upstream];
      pairs.add(pair);
      for (const sock of pair) {
        sock.on('error', () => undefined);
        sock.on('close', () => {
          pairs.delete(pair);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(listenPort, '127.0.0.1', () => resolve());
    });
    listenPort = (s.address() as { port: number }).port;
    server = s;
  };
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const pair of pairs) for (const sock of pair) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  const silence = () => {
    for (const [client, upstream] of pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  };
  await open();
  return { port: listenPort, cut, silence, restore: open, close: cut };
}
