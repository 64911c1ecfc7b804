import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Closes the listener and destroys every relayed connection, as a network cut or a failover does. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP relay to `host:port` on an ephemeral local port, that a test can cut and restore. */
export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let listenPort = 0;
  const open = async () => {
    const s = createServer((client) => {
      const upstream = createConnection(port, host);
      for (const sock of [client, upstream]) {
        sockets.add(sock);
        sock.on('error', () => undefined);
        sock.on('close', () => { sockets.delete(sock); client.destroy(); upstream.destroy(); });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => { s.once('error', reject); s.listen(listenPort, '127.0.0.1', () => resolve()); });
    listenPort = (s.address() as { port: number }).port;
    server = s;
  };
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await open();
  return { port: listenPort, cut, restore: open, close: cut };
}
