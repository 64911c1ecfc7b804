/** How the client retries. Every field is optional; `retry: false` turns retrying off. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 attempts). */
  retries?: number;
  /** First back-off for a 503 or a network error, doubled each time with jitter (default 500 ms). */
  baseDelayMs?: number;
  /** The longest the client waits before one retry, Retry-After included (default 30 s); a longer Retry-After is not waited for. */
  maxDelayMs?: number;
}

type Fetch = (input: Request) => Promise<Response>;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A fetch that retries:
 * - a 429 of any method, after its Retry-After: the rate limit answers before the request is handled, so nothing
 *   was created;
 * - a 503 or a network error only when a repeat cannot create twice: a safe method, or a request carrying an
 *   `Idempotency-Key` header.
 */
export function retryingFetch(base: Fetch, options: RetryOptions | false | undefined, sleep = defaultSleep): Fetch {
  if (options === false) return base;
  const retries = options?.retries ?? 2;
  const baseDelayMs = options?.baseDelayMs ?? 500;
  const maxDelayMs = options?.maxDelayMs ?? 30_000;
  return async (request) => {
    const repeatable = SAFE.has(request.method) || request.headers.has('idempotency-key');
    for (let attempt = 0; ; attempt += 1) {
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt * (0.5 + Math.random() / 2));
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (err) {
        if (attempt >= retries || !repeatable || request.signal.aborted) throw err;
        await sleep(backoff, request.signal);
        continue;
      }
      if (attempt >= retries) return response;
      let delay: number | undefined;
      if (response.status === 429) delay = retryAfterMs(response.headers.get('retry-after')) ?? backoff;
      else if (response.status === 503 && repeatable)
        delay = retryAfterMs(response.headers.get('retry-after')) ?? backoff;
      if (delay === undefined || delay > maxDelayMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, request.signal);
    }
  };
}

/** Retry-After as delay-seconds or an HTTP date, in milliseconds. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    /* eslint-disable @typescript-eslint/prefer-promise-reject-errors -- an aborted wait rejects with the signal's
       reason, as fetch does: whatever the caller gave abort() */
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    /* eslint-enable @typescript-eslint/prefer-promise-reject-errors */
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
