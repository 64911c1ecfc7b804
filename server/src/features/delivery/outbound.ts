import type { LookupFunction } from 'node:net';
import { parseWebhookUrl, resolveTarget, type ResolvedAddress } from './url-guard.js';

/*
 * The one rule for a request this service makes to an address someone typed in (a webhook, a rate source): the URL
 * is checked, its name resolved and every address judged just before the request, and the connection made only to
 * those addresses, all within the request's deadline.
 */

/**
 * The addresses to connect to, or undefined when private URLs are allowed (the name is then resolved as usual).
 * Throws UrlProblem for a URL the rules refuse; gives up when `signal` aborts (the request's deadline).
 */
export async function outboundTargets(
  rawUrl: string,
  allowPrivate: boolean,
  signal: AbortSignal,
): Promise<{ url: URL; targets: ResolvedAddress[] | undefined }> {
  const url = parseWebhookUrl(rawUrl);
  const targets = allowPrivate ? undefined : await abortable(resolveTarget(url, false), signal);
  return { url, targets };
}

/** Connects to the addresses that passed the check, never to a fresh DNS answer. */
export function pinnedLookup(targets: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, targets);
    else callback(null, targets[0].address, targets[0].family);
  }) as unknown as LookupFunction;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
