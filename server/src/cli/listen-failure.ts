/**
 * A port that cannot be bound, said with the setting that chose it and how to fix it: Node's own words
 * ("listen EADDRINUSE: address already in use 127.0.0.1:3000") name neither. Anything else is returned as it is.
 */
export function listenFailure(err: unknown, setting: 'PORT' | 'WORKER_PORT', host: string, port: number): unknown {
  const at = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch ((err as { code?: unknown }).code) {
    case 'EADDRINUSE':
      return new Error(
        `${setting}: ${at} is already in use (EADDRINUSE); stop the process that listens there, or set ${setting} to a free port`,
        { cause: err },
      );
    case 'EACCES':
      return new Error(
        `${setting}: not permitted to listen on ${at} (EACCES); ports below 1024 need privileges: set ${setting} to 1024 or above`,
        { cause: err },
      );
    case 'EADDRNOTAVAIL':
      return new Error(
        `HOST: ${host} is not an address of this machine (EADDRNOTAVAIL); set HOST to one of its addresses, or 0.0.0.0`,
        { cause: err },
      );
    default:
      return err;
  }
}
