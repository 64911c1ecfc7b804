import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * Baseline (a) for the catalogue reads: a bare node:http server answering, for each request line, the exact body
 * the service gave for it (BENCH_BODIES: a JSON file of `{"GET /path": body}`), from memory.
 */
const bodies = new Map(
  Object.entries(JSON.parse(readFileSync(process.env.BENCH_BODIES!, 'utf8')) as Record<string, string>).map(
    ([line, body]) => [line, Buffer.from(body)],
  ),
);

createServer((req, res) => {
  const body = bodies.get(`${req.method} ${req.url}`);
  req.resume();
  req.on('end', () => {
    // /health is how the bench sees that the process is up.
    if (!body) return res.writeHead(req.url === '/health' ? 200 : 404).end();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
