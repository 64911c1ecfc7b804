import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import { seedDemo } from '../demo/seed.js';
import { startRuntime } from '../runtime.js';
import { CliError, EXIT, print } from './output.js';
import { serve } from './serve.js';
import { keysCommand } from './keys.js';
import { openApiCommand } from './openapi.js';
import { staffCommand } from './staff.js';
import type { CliCommand } from './support.js';
import { runWorker } from './worker.js';

const quietLog = () => undefined;

export const commands: Record<string, CliCommand> = {
  serve: {
    summary: 'Run the HTTP API (and the webhook worker unless --no-worker)',
    usage: 'pxs serve [--no-worker]',
    options: { 'no-worker': { type: 'boolean' } },
    run: (values) => serve({ worker: !values['no-worker'] }),
  },
  worker: {
    summary: 'Run only the webhook delivery worker (any number may run against one PostgreSQL)',
    usage: 'pxs worker',
    run: () => runWorker(),
  },
  migrate: {
    summary: 'Apply pending database migrations',
    usage: 'pxs migrate [--json]',
    options: { json: { type: 'boolean' } },
    async run(values) {
      const ctx = await startRuntime(loadConfig(), quietLog);
      await ctx.close();
      print(Boolean(values.json), { migrated: true }, () => 'Migrations applied: the database is up to date.');
    },
  },
  seed: {
    summary: 'Seed demo data into an empty database',
    usage: 'pxs seed --demo [--json]',
    options: { demo: { type: 'boolean' }, json: { type: 'boolean' } },
    async run(values) {
      if (!values.demo) throw new CliError('Only demo data can be seeded: pxs seed --demo', EXIT.usage);
      const config = loadConfig();
      // Its logins and passwords are in the README: never in production, as `pxs serve` never seeds it there.
      if (config.env === 'production')
        throw new CliError(
          'The demo is never seeded in production (NODE_ENV=production): its passwords are public',
          EXIT.config,
        );
      const ctx = await startRuntime(config, quietLog);
      try {
        const demo = await seedDemo(ctx.db);
        if (!demo) throw new CliError('The database already has data; the demo is seeded only into an empty one.');
        print(Boolean(values.json), demo, () =>
          [
            'Demo data seeded. Keys (shown once):',
            ...demo.keys.map((k) => `  ${k.type.padEnd(9)} ${k.rawKey}`),
            'Staff:',
            ...demo.staff.map((s) => `  ${s.role.padEnd(11)} ${s.email} / ${s.password}`),
          ].join('\n'),
        );
      } finally {
        await ctx.close();
      }
    },
  },
  staff: staffCommand,
  keys: keysCommand,
  openapi: openApiCommand,
};

function help(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'pxs — Partner Exchange Service',
    '',
    'Usage: pxs <command> [options]   (pxs <command> --help for details)',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Configuration comes from environment variables (see README).',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name) {
    process.stderr.write(`pxs: a command is required\n\n${help()}\n`);
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help()}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`pxs: unknown command "${name}"\n\n${help()}\n`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.summary}\n\nUsage: ${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: command.options ?? {},
      allowPositionals: true,
      strict: true,
    });
    const extra = positionals[command.maxPositionals ?? 0];
    if (extra !== undefined) throw new CliError(`unexpected argument "${extra}"\nUsage: ${command.usage}`, EXIT.usage);
    await command.run(values, positionals);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pxs: ${err.message}\n`);
      return EXIT.config;
    }
    if (err instanceof CliError) {
      process.stderr.write(`pxs: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`pxs ${name}: ${err.message}\nUsage: ${command.usage}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`pxs ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failure;
  }
}

// `pxs openapi | head` closes the pipe early: the reader has what it wanted, which is no failure and no stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});
const code = await main(process.argv.slice(2));
const longRunning = ['serve', 'worker'].includes(process.argv[2] ?? '');
// A long-running command that failed to start has closed what it opened; exiting makes sure nothing it missed
// keeps a process that serves nothing alive.
if (longRunning && code !== EXIT.ok) process.exit(code);
if (!longRunning) process.exitCode = code;
