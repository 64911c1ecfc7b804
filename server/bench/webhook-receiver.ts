import { spawn } from 'node:child_process';

/**
 * The receiver runs in a process of its own, as a partner's would, so it does not share the worker's event loop.
 * It answers 200 at once, and records when the first request came and each envelope's lag from its timestamp to
 * its arrival; GET /stats reads them.
 */
const RECEIVER = `
const http = require('node:http');
let count = 0, first = 0, lags = [], recording = false;
const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    const out = JSON.stringify({ count, first, lags });
    if (req.url === '/stats?record=1') { recording = true; lags = []; }
    if (req.url === '/stats?record=0') recording = false;
    return res.end(out);
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (count++ === 0) first = Date.now();
    if (recording) lags.push(Date.now() - Date.parse(JSON.parse(Buffer.concat(chunks).toString()).timestamp));
    res.writeHead(200).end('ok');
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

export interface Stats { count: number; first: number; lags: number[] }
export interface Receiver { url: string; pid?: number; stats(query?: string): Promise<Stats>; close(): void }

export async function startReceiver(): Promise<Receiver> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    child.once('exit', () => reject(new Error('webhook bench receiver exited')));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hook`,
    pid: child.pid,
    stats: async (query = '') => (await fetch(`${base}/stats${query}`)).json() as Promise<Stats>,
    close: () => child.kill(),
  };
}
