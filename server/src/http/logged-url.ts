/**
 * The URL as the access log writes it. A search's `q` and a list's `filter` can hold a client's email, phone or
 * name, which logs (kept long, read widely) must not; and a client that puts its key or a token in the query
 * (`?api_key=sk_…`, refused with 401) must not leave it there. Their values are replaced, the rest of the query kept.
 */
const REDACTED_NAMES = /([?&](?:q|filter|api[_-]?key|key|token|access[_-]?token|secret|password)=)[^&]*/gi;
/** An API key's shape, under any name. */
const KEY_VALUES = /([?&][^=&]*=)(?:sk|pk)_[^&]*/g;

export function loggedUrl(url: string): string {
  return url.includes('?') ? url.replace(REDACTED_NAMES, '$1[redacted]').replace(KEY_VALUES, '$1[redacted]') : url;
}
