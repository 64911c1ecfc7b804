import http from 'node:http';
import https from 'node:https';
import { outboundTargets, pinnedLookup, UrlProblem } from '../delivery/service.js';

export interface ReadOptions {
  timeoutMs: number;
  /** Past this many bytes the answer is dropped and the read fails: no rate document is that large. */
  maxBytes: number;
  allowPrivateUrls: boolean;
}

/** 2 MB: Binance's full ticker list, the largest real document, is about 200 KB. */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/** Why a read failed, in words fit for lastError and the log: the fault, never the URL (its query may hold a key). */
export class ReadFailed extends Error {}

/**
 * GETs a source's document under the webhook sender's rules: the URL checked and its name resolved and judged just
 * before the request, the connection pinned to those addresses, one deadline over DNS, connect, answer and body,
 * no redirect followed, a 2xx answer only, and at most `maxBytes` read.
 */
export async function readDocument(rawUrl: string, options: ReadOptions): Promise<Buffer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const { url, targets } = await outboundTargets(rawUrl, options.allowPrivateUrls, controller.signal);
    return await get(url, targets && pinnedLookup(targets), options.maxBytes, controller.signal);
  } catch (err) {
    if (controller.signal.aborted) throw new ReadFailed(`timeout after ${options.timeoutMs} ms`);
    if (err instanceof ReadFailed) throw err;
    if (err instanceof UrlProblem) throw new ReadFailed(`refused: ${err.message}`);
    const e = err as NodeJS.ErrnoException;
    throw new ReadFailed(`${e.code ? `${e.code}: ` : ''}${e.message}`.slice(0, 300));
  } finally {
    clearTimeout(timer);
  }
}

function get(
  url: URL,
  lookup: ReturnType<typeof pinnedLookup> | undefined,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(
      url,
      {
        // A connection per read: a source is read every few seconds at most, so there is nothing to keep.
        agent: false,
        lookup,
        signal,
        headers: { accept: 'application/json, application/xml, text/xml, */*', 'accept-encoding': 'identity' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          res.destroy();
          const redirect = status >= 300 && status < 400;
          return reject(new ReadFailed(redirect ? `HTTP ${status}: redirect not followed` : `HTTP ${status}`));
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          res.destroy();
          return reject(new ReadFailed(`the document is larger than ${maxBytes} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new ReadFailed(`the document is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
        // An answer cut off before its end (a reset, a destroyed stream) ends in close without end.
        res.on('close', () => {
          if (!res.complete) reject(new ReadFailed('the answer ended before its end'));
        });
      },
    );
    req.on('error', reject);
  });
}
