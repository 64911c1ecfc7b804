import type { TestServer } from './server.js';
import type { World } from './world.js';

export type StaffName = 'superadmin' | 'admin1' | 'admin2' | 'operatorA' | 'operatorB' | 'readOnlyA';

/** A staff access token signed by the server itself (no password hashing, so fast); login is tested on its own. */
export async function staffToken(server: TestServer, staffUserId: number): Promise<string> {
  return (await server.ctx.tokens.sign(staffUserId)).accessToken;
}

/** Tokens for every staff user of the world. */
export async function staffTokens(server: TestServer, world: World): Promise<Record<StaffName, string>> {
  const out: Record<string, string> = {};
  for (const [name, s] of Object.entries(world.staff)) out[name] = await staffToken(server, s.id);
  return out as Record<StaffName, string>;
}
