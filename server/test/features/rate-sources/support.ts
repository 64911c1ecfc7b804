import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Database } from '../../../src/db/database.js';
import type { QuoteSink } from '../../../src/features/rate-sources/poller.js';

export const fixture = (name: string) => readFileSync(new URL(`../../fixtures/rate-sources/${name}`, import.meta.url));

/** What the source server answers on a path: a status with headers and a body, or never. */
export type Answer = { status: number; body?: Buffer | string; headers?: Record<string, string> } | 'hang';

/** A real local HTTP server publishing rate documents, counting the requests of each path. */
export interface SourceServer {
  url(path: string): string;
  /** Sets the answer of a path (a 404 until set). */
  serve(path: string, answer: Answer | (() => Answer)): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startSourceServer(): Promise<SourceServer> {
  const answers = new Map<string, Answer | (() => Answer)>();
  const counts = new Map<string, number>();
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const set = answers.get(path);
    const answer = typeof set === 'function' ? set() : (set ?? { status: 404, body: 'not found' });
    if (answer === 'hang') {
      hanging.push(res);
      return;
    }
    res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${base}${path}`,
    serve: (path, answer) => answers.set(path, answer),
    hits: (path) => counts.get(path) ?? 0,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The poller's sink as a record of its calls: the interface the poller hands its reads to. */
export function recordingSink() {
  const applied: { sourceId: number; quotes: Readonly<Record<string, string>>; readAt: Date }[] = [];
  const stale: { sourceId: number; now: Date }[] = [];
  const sink: QuoteSink = {
    applied: async (_db: Database, sourceId, quotes, readAt) => {
      applied.push({ sourceId, quotes, readAt });
    },
    stale: async (_db: Database, sourceId, now) => {
      stale.push({ sourceId, now });
    },
  };
  return { sink, applied, stale };
}
