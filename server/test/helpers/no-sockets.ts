import net from 'node:net';
import { afterAll } from 'vitest';

/**
 * Setup file of the unit projects: a unit test answers in milliseconds because it opens nothing. Any socket (a
 * PostgreSQL or Redis connection, fetch, a listening server) fails the test that opened it, so a test that needs
 * one moves to the integration project instead of slowing `npm run test:unit` down unnoticed. The drivers
 * themselves are kept out at import time by the unit project's resolver (unit-project.ts).
 */
// Kept to be put back as they were, never called apart from their object.
// eslint-disable-next-line @typescript-eslint/unbound-method
const connect = net.Socket.prototype.connect;
// eslint-disable-next-line @typescript-eslint/unbound-method
const listen = net.Server.prototype.listen;

function refuse(what: string): never {
  throw new Error(`A unit test may not ${what}: name the file *.test.ts (an integration test) instead`);
}

net.Socket.prototype.connect = function () {
  refuse('open a connection');
} as typeof connect;
net.Server.prototype.listen = function () {
  refuse('listen on a port');
} as typeof listen;

afterAll(() => {
  net.Socket.prototype.connect = connect;
  net.Server.prototype.listen = listen;
});
