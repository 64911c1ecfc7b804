/**
 * The URL as the access log writes it. A search's `q` and a list's `filter` can hold a client's email, phone or
 * name, which logs (kept long, read widely) must not: their values are replaced, the rest of the query kept.
 */
const PERSONAL = /([?&](?:q|filter)=)[^&]*/g;

export function loggedUrl(url: string): string {
  return url.includes('?') ? url.replace(PERSONAL, '$1[redacted]') : url;
}
