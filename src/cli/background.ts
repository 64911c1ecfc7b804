import type { AppContext } from '../context.js';

export interface Background { stop(): Promise<void> }

/** Work that runs beside the HTTP server: the webhook delivery worker (unless --no-worker). */
export async function startBackground(_ctx: AppContext, _options: { worker: boolean }): Promise<Background> {
  return { stop: async () => undefined };
}
