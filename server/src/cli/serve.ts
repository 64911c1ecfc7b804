import type { AddressInfo } from 'node:net';
import { buildApp } from '../app.js';
import { loadConfig } from '../config/config.js';
import type { AppContext } from '../context.js';
import { seedDemo, type DemoCredentials } from '../demo/seed.js';
import { bootstrapSuperadmin } from '../features/staff/bootstrap.js';
import type { App } from '../http/types.js';
import { startRuntime } from '../runtime.js';
import { startBackground, type Background } from './background.js';
import { exitGracefully, processLogger } from './lifecycle.js';
import { listenFailure } from './listen-failure.js';

export interface ServeOptions {
  worker: boolean;
}

/** `pxs serve`: migrate, seed the demo on an empty embedded database, listen, run the worker; close gracefully. */
export async function serve(options: ServeOptions): Promise<void> {
  const config = loadConfig();
  const { logger, log } = processLogger(config);
  const opened: { app?: App; background?: Background } = {};
  const ctx = await startRuntime(config, log);
  try {
    const bootstrap = await bootstrapSuperadmin(ctx.db, config.bootstrapAdmin);
    if (bootstrap === 'created') log('info', 'bootstrap superadmin created', { email: config.bootstrapAdmin?.email });
    if (bootstrap === 'emailTaken')
      log('warn', 'BOOTSTRAP_ADMIN_EMAIL belongs to a staff user who is not a superadmin; no superadmin was created');

    const demo = config.seedDemo && config.env !== 'production' ? await seedDemo(ctx.db) : null;
    opened.app = await buildApp(ctx, {
      loggerInstance: logger,
      demoPublicKey: demo?.keys.find((k) => k.type === 'public')?.rawKey,
    });
    // A new connection costs its first request a backend start and cold caches: pay for them before listening.
    await ctx.database.warm();
    await opened.app.listen({ port: config.port, host: config.host }).catch((err: unknown) => {
      throw listenFailure(err, 'PORT', config.host, config.port);
    });
    // Only once the port is bound: a start that fails on it must not have claimed deliveries first.
    opened.background = await startBackground(ctx, { worker: options.worker });
    // Its keys are shown once: not above a failed start's error, and with the port bound (PORT=0 picks one).
    if (demo) printDemo(demo, (opened.app.server.address() as AddressInfo).port);
  } catch (err) {
    // A start that failed (a port in use, a bad HOST) must end the process: the worker's timers and the database's
    // connections would keep it running, serving nothing, where a process manager sees it alive.
    await closeAll(opened, ctx).catch((closing: unknown) =>
      log('warn', 'closing after a failed start failed', { err: (closing as Error).message }),
    );
    throw err;
  }

  exitGracefully(logger, 'no new connections, finishing in-flight work', () => closeAll(opened, ctx));
}

async function closeAll(opened: { app?: App; background?: Background }, ctx: AppContext): Promise<void> {
  await opened.app?.close();
  await opened.background?.stop();
  await ctx.close();
}

function printDemo(demo: DemoCredentials, port: number): void {
  const lines = [
    '',
    '  Demo data seeded (branch "Demo Branch"). These keys are shown once; keep them:',
    ...demo.keys.map((k) => `    ${k.type.padEnd(9)} ${k.rawKey}`),
    '',
    '  Staff logins (POST /api/v1/auth/login):',
    ...demo.staff.map((s) => `    ${s.role.padEnd(11)} ${s.email} / ${s.password}`),
    '',
    `  Try: curl -H "Authorization: Bearer ${demo.keys[0].rawKey}" http://localhost:${port}/api/v1/partner/public/exchanges`,
    `  Docs: http://localhost:${port}/docs`,
    `  Rates widget: http://localhost:${port}/widget/demo`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
