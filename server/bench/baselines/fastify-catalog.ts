import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { EstimateRequest, EstimateResult } from '../../src/features/catalog/schemas.js';
import { validatorCompiler } from '../../src/http/validators.js';

/**
 * The framework's share of a catalogue read: bare Fastify 5 answering, for each request line, the body the service
 * gave for it (BENCH_BODIES, as for node-http-catalog.ts). GETs send the body as bytes, as the snapshot does; the
 * estimate's POST has the service's body and response schemas and validator, so Fastify parses, validates and
 * serializes as it does in the service. No key, rate limit, headers of the service's own, metrics or pricing:
 * what is left between this and baseline (a) is what those may cost.
 */
const bodies = Object.entries(JSON.parse(readFileSync(process.env.BENCH_BODIES!, 'utf8')) as Record<string, string>);
const app = Fastify({ logger: false });
app.setValidatorCompiler(validatorCompiler());

app.get('/health', async () => ({ status: 'ok' }));
for (const [line, body] of bodies) {
  const [method, path] = line.split(' ') as [string, string];
  const url = new URL(path, 'http://x').pathname;
  if (method === 'POST') {
    const answer = JSON.parse(body) as unknown;
    app.post(url, { schema: { body: EstimateRequest, response: { 200: EstimateResult } } }, async () => answer);
  } else {
    const bytes = Buffer.from(body);
    app.get(url, (_request, reply) => {
      reply.type('application/json; charset=utf-8').send(bytes);
    });
  }
}

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// eslint-disable-next-line @typescript-eslint/no-misused-promises -- a failed close rejects unhandled and ends the process, as it should
process.on('SIGTERM', async () => {
  await app.close();
  process.exit(0);
});
