import { writeFile } from 'node:fs/promises';
import { buildApp } from '../app.js';
import { loadConfig } from '../config/config.js';
import { startRuntime } from '../runtime.js';
import { CliError, EXIT } from './output.js';
import type { CliCommand } from './support.js';

/**
 * The OpenAPI document exactly as `GET /api/v1/openapi.json` serves it, built from the route schemas of an app on a
 * throw-away in-memory database (the document depends on no data and no setting). Written with a final newline.
 */
export async function openApiDocument(): Promise<string> {
  const ctx = await startRuntime(
    loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent', SEED_DEMO: 'false' }),
    () => undefined,
  );
  try {
    const app = await buildApp(ctx);
    await app.ready();
    const text = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    await app.close();
    return text;
  } finally {
    await ctx.close();
  }
}

export const openApiCommand: CliCommand = {
  summary: 'Print the OpenAPI document the server serves (or write it with --out)',
  usage: 'pxs openapi [--out <file>] [--json]',
  // --json as every command takes it: the document is JSON already.
  options: { out: { type: 'string' }, json: { type: 'boolean' } },
  async run(values) {
    if (values.out === '') throw new CliError('--out needs a file name', EXIT.usage);
    const text = await openApiDocument();
    if (typeof values.out === 'string') await writeFile(values.out, text);
    else process.stdout.write(text);
  },
};
