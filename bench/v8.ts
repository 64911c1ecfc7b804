import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// The service's V8 settings (bin/v8-flags.js), for the bench's own processes: a module with no other imports, so
// that the forked paced generator loads nothing it does not use.
const here = fileURLToPath(new URL('.', import.meta.url));
export const { V8_FLAGS } = (await import(pathToFileURL(join(here, '../../bin/v8-flags.js')).href)) as { V8_FLAGS: string[] };

/** For a process that generates load: its own collections would count as the service's latency. */
export function useServiceV8Flags(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
