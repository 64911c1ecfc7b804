import type { BranchCatalog } from './snapshot-build.js';

/** Past this many bodies of one snapshot (distinct filters and pages), answers are serialized per request again. */
const MAX_BODIES = 64;

const bodies = new WeakMap<BranchCatalog, Map<string, Buffer>>();

interface Reply {
  serialize(payload: unknown): unknown;
  type(contentType: string): unknown;
}

/**
 * A read's response body, serialized once per snapshot by the route's own serializer (its response schema), so
 * it is byte for byte what the route would write. It is kept and sent as bytes: node writes a string body by
 * encoding it into the socket on every response (a bare Fastify server sending 3 KB: 13-13.5 µs of CPU per
 * request as a string, 11.5 as a buffer), and the ETag of a body sent again is remembered by its buffer
 * (http/etag.ts). The snapshot is replaced, not changed, when the catalogue changes, so its bodies go with it.
 */
export function cachedBody<R extends Reply>(catalog: BranchCatalog, key: string, reply: R, make: () => unknown): R {
  return sendBody(
    reply,
    kept(catalog, key, () => String(reply.serialize(make()))),
    JSON_TYPE,
  );
}

/** As cachedBody, for a body the route writes itself as text of its own type (rates.xml). */
export function cachedText<R extends Reply>(
  catalog: BranchCatalog,
  key: string,
  reply: R,
  type: string,
  make: () => string,
): R {
  return sendBody(reply, kept(catalog, key, make), type);
}

function kept(catalog: BranchCatalog, key: string, make: () => string): Buffer {
  let map = bodies.get(catalog);
  if (!map) bodies.set(catalog, (map = new Map<string, Buffer>()));
  let body = map.get(key);
  if (body === undefined) {
    body = Buffer.from(make());
    if (map.size < MAX_BODIES) map.set(key, body);
  }
  return body;
}

/**
 * Sends the body kept under `key`, if this snapshot has one: whatever made it (parsing the request, a page's
 * reads) was done once for the same key and snapshot, and need not be done again.
 */
export function sendKept(catalog: BranchCatalog, key: string, reply: Reply): boolean {
  const body = bodies.get(catalog)?.get(key);
  if (body === undefined) return false;
  sendBody(reply, body, JSON_TYPE);
  return true;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function sendBody<R extends Reply>(reply: R, body: Buffer, type: string): R {
  reply.type(type);
  // The route's typed reply takes only its schema's shape; this body is that shape, already written.
  (reply as unknown as { send(payload: Buffer): unknown }).send(body);
  return reply;
}

/**
 * A read answered from the branch's snapshot: sent at once when the snapshot is built (the handler returns no
 * promise, which spares a cached read a turn of the microtask queue), once it is built, or from the database
 * (`fromDatabase`'s value is the answer) when no snapshot may be trusted.
 */
export function fromSnapshot<T>(
  snapshot: BranchCatalog | Promise<BranchCatalog> | undefined,
  reply: unknown,
  send: (catalog: BranchCatalog) => unknown,
  fromDatabase: () => Promise<T>,
): Promise<T> | void {
  if (snapshot === undefined) return fromDatabase();
  // Resolving to the reply is Fastify's sign that it was sent (not a body to send).
  if (snapshot instanceof Promise)
    return snapshot.then((catalog) => {
      send(catalog);
      return reply as T;
    });
  send(snapshot);
  return undefined;
}
