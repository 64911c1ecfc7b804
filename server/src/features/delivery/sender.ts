import http from 'node:http';
import https from 'node:https';
import { outboundTargets, pinnedLookup } from './outbound.js';
import { UrlProblem, type ResolvedAddress } from './url-guard.js';

export interface AttemptResult {
  ok: boolean;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  /** The first 1 KB of the answer. */
  body: string | null;
  error: string | null;
}

const KEEP_BYTES = 1024;
/**
 * Idle kept connections are closed after 4 s, before the 5 s idle timeout of Node's and Apache's servers; with this
 * set, Node's agent also honours a shorter `Keep-Alive: timeout=` that a receiver announces (it ignores the hint
 * when no timeout is set).
 */
const KEEP_ALIVE_MS = 4000;
/** A reset this soon after the attempt was written means the receiver had closed the connection before reading it. */
const STALE_RESET_MS = 100;
/** Past this much answer the connection is dropped: only the first kilobyte is kept anyway. */
const MAX_READ_BYTES = 64 * 1024;

/**
 * Sends one attempt: a POST of the exact body, with a deadline covering DNS, connect, answer and body, to an
 * address checked just before (SSRF) and pinned for the connection. Redirects are never followed.
 */
export class Sender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: KEEP_ALIVE_MS }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: KEEP_ALIVE_MS }),
  };

  constructor(private readonly options: { timeoutMs: number; allowPrivateUrls: boolean }) {}

  async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const startedAt = new Date();
    const t0 = performance.now();
    const done = (r: Omit<AttemptResult, 'startedAt' | 'durationMs' | 'ok'>): AttemptResult => ({
      ok: r.status !== null && r.status >= 200 && r.status < 300,
      startedAt,
      durationMs: Math.round(performance.now() - t0),
      status: r.status,
      body: r.body,
      error: r.error,
    });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    try {
      const { url, targets } = await outboundTargets(rawUrl, this.options.allowPrivateUrls, controller.signal);
      const answer = await this.request(url, targets, headers, body, controller.signal);
      const error = answer.status >= 300 && answer.status < 400 ? 'redirect not followed' : null;
      return done({ status: answer.status, body: answer.body, error });
    } catch (err) {
      if (controller.signal.aborted)
        return done({ status: null, body: null, error: `timeout after ${this.options.timeoutMs} ms` });
      if (err instanceof UrlProblem) return done({ status: null, body: null, error: `refused: ${err.message}` });
      const e = err as NodeJS.ErrnoException;
      return done({ status: null, body: null, error: `${e.code ? `${e.code}: ` : ''}${e.message}`.slice(0, 500) });
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  /**
   * A receiver may close an idle kept connection just as the attempt is written to it; the attempt then fails with
   * a reset before the receiver read it. Such a failure, on a reused connection and within STALE_RESET_MS of the
   * write, is repeated once at once (Node's documented pattern, `request.reusedSocket`), within the same deadline.
   * A reset after the receiver held the request longer may come after it acted on it: that is the attempt's failure.
   */
  private async request(
    url: URL,
    targets: ResolvedAddress[] | undefined,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ) {
    try {
      return await this.requestOnce(url, targets, headers, body, signal);
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
      return this.requestOnce(url, targets, headers, body, signal);
    }
  }

  private requestOnce(
    url: URL,
    targets: ResolvedAddress[] | undefined,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      let writtenAt: number | undefined;
      const req = client.request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: this.agents[url.protocol as 'http:' | 'https:'],
          lookup: targets ? pinnedLookup(targets) : undefined,
          signal,
        },
        (res) => {
          const kept: Buffer[] = [];
          let keptBytes = 0;
          let readBytes = 0;
          const finish = () => resolve({ status: res.statusCode ?? 0, body: cleanText(Buffer.concat(kept)) });
          res.on('data', (chunk: Buffer) => {
            readBytes += chunk.length;
            if (keptBytes < KEEP_BYTES) {
              kept.push(chunk.subarray(0, KEEP_BYTES - keptBytes));
              keptBytes += Math.min(chunk.length, KEEP_BYTES - keptBytes);
            }
            if (readBytes > MAX_READ_BYTES) {
              res.destroy();
              finish();
            }
          });
          res.on('end', finish);
          res.on('error', reject);
        },
      );
      // Node reports a reset after the answer began on the response, not here.
      req.on('error', (err: NodeJS.ErrnoException) => {
        const soon = writtenAt === undefined || performance.now() - writtenAt < STALE_RESET_MS;
        const stale =
          req.reusedSocket && soon && !signal.aborted && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
        reject(stale ? new StaleConnection(err.message) : err);
      });
      req.on('finish', () => {
        writtenAt = performance.now();
      });
      req.end(body);
    });
  }
}

class StaleConnection extends Error {}

/** The answer as text for the log: at most 1024 characters, without the NUL bytes Postgres text refuses. */
function cleanText(bytes: Buffer): string {
  return (
    bytes
      .toString('utf8')
      // eslint-disable-next-line no-control-regex -- removes the NUL bytes, as said above
      .replace(/\u0000/g, '')
      .replace(/\uFFFD$/, '')
      .slice(0, KEEP_BYTES)
  );
}
