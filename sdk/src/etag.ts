/** `createClient({ etagCache })`: `true` for the defaults, or its bound. */
export interface EtagCacheOptions {
  /** The most answers kept; the least recently used one goes first (default 500). */
  maxEntries?: number;
}

type Fetch = (input: Request) => Promise<Response>;

interface Entry {
  etag: string;
  body: ArrayBuffer;
  contentType: string | null;
}

/**
 * A fetch that polls cheaply: it keeps the last tagged 200 answer of each GET URL (the API tags the catalogue and
 * single-resource reads with an ETag), sends its tag as `If-None-Match` the next time, and answers a `304 Not
 * Modified` with the kept body as a 200, so the caller sees the same data parsed anew. The server decides: a body
 * that changed comes back whole with a new tag, which replaces the kept one. A request that sets its own
 * If-None-Match passes through untouched (its 304 is the caller's to handle).
 */
export function etagFetch(base: Fetch, options: EtagCacheOptions = {}): Fetch {
  const maxEntries = options.maxEntries ?? 500;
  if (!Number.isInteger(maxEntries) || maxEntries < 1)
    throw new RangeError('etagCache.maxEntries must be a positive integer');
  // A Map iterates in insertion order: deleting and setting again on every use keeps the least recent first.
  const cache = new Map<string, Entry>();
  const keep = (url: string, entry: Entry) => {
    cache.delete(url);
    cache.set(url, entry);
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
  };

  return async (request) => {
    if (request.method !== 'GET' || request.headers.has('if-none-match')) return base(request);
    const url = request.url;
    const kept = cache.get(url);
    let sent = request;
    if (kept) {
      const headers = new Headers(request.headers);
      headers.set('if-none-match', kept.etag);
      sent = new Request(request, { headers });
    }
    const response = await base(sent);
    if (response.status === 304 && kept) {
      keep(url, kept);
      // The 304's own headers (X-Request-Id, the rate limit's) with the kept body's type; no Content-Length, so
      // the body is read to its end.
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      if (kept.contentType !== null) headers.set('content-type', kept.contentType);
      return new Response(kept.body.slice(0), { status: 200, statusText: 'OK', headers });
    }
    const etag = response.headers.get('etag');
    if (response.status !== 200 || etag === null) {
      // An answer without a tag (or an error) leaves nothing to revalidate: forget what was kept.
      if (kept && response.status === 200) cache.delete(url);
      return response;
    }
    const body = await response.arrayBuffer();
    keep(url, { etag, body, contentType: response.headers.get('content-type') });
    return new Response(body.slice(0), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
