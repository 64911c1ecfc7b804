/**
 * `promise`, or a rejection with `message` once `ms` have passed, whichever comes first. The promise is not
 * cancelled: callers use this where the other end may never answer (a silently cut connection, a resolver).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
