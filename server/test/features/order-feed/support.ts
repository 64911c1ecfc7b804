export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** An open event stream read with fetch (the way the console reads it), collecting its events. */
export interface EventStream {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Resolves with the events once `predicate` holds for them (rejects after `timeoutMs`). */
  until(predicate: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(url: string, token?: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: abort.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  const ended = (async () => {
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => l && !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
          );
          if (fields.event || fields.data)
            events.push({ id: fields.id, event: fields.event ?? 'message', data: fields.data ?? '' });
        }
        for (const w of waiters) w();
      }
    } catch {
      /* aborted by close() */
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    until(predicate, timeoutMs = 10_000) {
      if (predicate(events)) return Promise.resolve(events);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`stream events so far: ${JSON.stringify(events)}`));
        }, timeoutMs);
        const check = () => {
          if (predicate(events)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(events);
          }
        };
        waiters.add(check);
      });
    },
    close: () => abort.abort(),
  };
}

export const orderEvents = (events: SseEvent[]) =>
  events.filter((e) => e.event === 'order').map((e) => JSON.parse(e.data));
