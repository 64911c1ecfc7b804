import type { FastifyReply } from 'fastify';
import type { Scope } from '../../auth/principal.js';
import type { OrderFeed } from './feed.js';
import type { ChangeRow } from '../orders/service.js';
import { canSee } from './visibility.js';

const HEARTBEAT_MS = 15_000;
const RECHECK_MS = 30_000;

export interface StreamOptions {
  feed: OrderFeed;
  scope: Scope;
  /** When the access token expires (ms since the epoch): the stream ends then. */
  expiresAt: number | null;
  /** Whether the staff user still has the role and scope the stream was opened with. */
  stillValid: () => Promise<boolean>;
  /** The open streams' end functions: this one is in it from its start until it ends, however it ends. */
  open: Set<() => void>;
  /** Called once when the stream ends, however it ends (to give back its slot). */
  onEnd: () => void;
}

/**
 * Turns the reply into an event stream of the feed's changes the scope allows. Returns the function that
 * ends it (also called when the client goes away, the token expires or the staff user changes).
 */
export async function openStream(reply: FastifyReply, options: StreamOptions): Promise<() => void> {
  const raw = reply.raw;
  const write = (text: string) => {
    if (!raw.writableEnded) raw.write(text);
  };
  const send = (change: ChangeRow) => {
    if (!canSee(options.scope, change)) return;
    const data = {
      orderId: change.orderId,
      fromStatus: change.fromStatus,
      toStatus: change.toStatus,
      branchId: change.branchId,
      exchangeId: change.exchangeId,
      at: change.at,
    };
    write(`id: ${change.id}\nevent: order\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const unsubscribe = await options.feed.subscribe(send);

  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    // Proxies that buffer responses (nginx) would hold the events back.
    'x-accel-buffering': 'no',
    'x-request-id': String(reply.request.id),
  });
  write('retry: 3000\nevent: ready\ndata: {}\n\n');

  const timers: NodeJS.Timeout[] = [setInterval(() => write(': ping\n\n'), HEARTBEAT_MS)];
  timers.push(
    setInterval(() => {
      options.stillValid().then(
        (ok) => {
          if (!ok) end();
        },
        () => undefined,
      );
    }, RECHECK_MS),
  );
  // setTimeout takes at most 2^31-1 ms; a longer-lived (external) token is rechecked by then.
  if (options.expiresAt !== null)
    timers.push(setTimeout(() => end(), Math.min(2 ** 31 - 1, Math.max(0, options.expiresAt - Date.now()))));

  let ended = false;
  function end(): void {
    if (ended) return;
    ended = true;
    unsubscribe();
    for (const t of timers) clearTimeout(t);
    if (!raw.writableEnded) raw.end();
    options.open.delete(end);
    options.onEnd();
  }
  options.open.add(end);
  // A client that went away during authentication or the subscription has closed already: no 'close' will come,
  // and the timers and the subscription would live until the token expired.
  const socket = reply.request.raw.socket;
  if (!socket || socket.destroyed) end();
  else raw.once('close', end);
  return end;
}
