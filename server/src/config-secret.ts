let devSecret: string | undefined;

/** The JWT secret of a process started without JWT_SECRET outside production: random, made once per process. */
export function developmentSecret(): string {
  devSecret ??= randomHex(32);
  return devSecret;
}

function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
