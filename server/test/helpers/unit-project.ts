import type { Plugin } from 'vitest/config';

/**
 * Keeps the embedded database and the helpers that start servers and databases out of the unit projects: importing
 * one fails the file at once. PGlite opens no socket, so only this catches it; PostgreSQL and Redis clients may be
 * imported (the Redis invalidation bus is) but not connected, which no-sockets.ts refuses.
 */
export function unitOnly(): Plugin {
  const forbidden = [
    /^@electric-sql\/pglite/,
    /^kysely-pglite-dialect/,
    /(^|\/)db\/database\.[jt]s$/,
    /(^|\/)helpers\/(server|database|fixture|world)\.[jt]s$/,
  ];
  return {
    name: 'pxs-unit-only',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer && forbidden.some((pattern) => pattern.test(source))) {
        this.error(
          `${importer} imports ${source}: a unit test opens no database or server (name it *.test.ts instead)`,
        );
      }
      return null;
    },
  };
}
