import { startTestServer, type StartOptions, type TestServer } from './server.js';
import { staffTokens, type StaffName } from './staff.js';
import { createWorld, type World } from './world.js';

/** The usual fixture of a test file: a real server, the two-branch world in its database, and staff tokens. */
export async function startWorld(
  options: StartOptions = {},
): Promise<{ server: TestServer; world: World; tokens: Record<StaffName, string> }> {
  const server = await startTestServer(options);
  const world = await createWorld(server.db);
  return { server, world, tokens: await staffTokens(server, world) };
}
