import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// The service's V8 settings (bin/v8-flags.js), for the bench's own processes: a module with no other imports, so
// that the forked paced generator loads nothing it does not use.
const here = fileURLToPath(new URL('.', import.meta.url));
export const { STARTUP_FLAGS, V8_FLAGS } = (await import(pathToFileURL(join(here, '../../bin/v8-flags.js')).href)) as { STARTUP_FLAGS: string[]; V8_FLAGS: string[] };
/** Node options that give a process the service's V8 settings, as its first line gives bin/pxs.js. */
export const NODE_ARGS = [...STARTUP_FLAGS, ...V8_FLAGS];

/**
 * For a process that generates load: its own collections would count as the service's latency. Only the settings
 * V8 reads as it goes can be applied this late; a process of its own gets NODE_ARGS.
 */
export function useServiceV8Flags(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
