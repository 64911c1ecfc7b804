/**
 * The URL as the access log writes it. A search's `q` and a list's `filter` can hold a client's email, phone or
 * name, which logs (kept long, read widely) must not; and a client that puts its key or a token in the query
 * (`?api_key=sk_…`, refused with 401) or in the path must not leave it there. Their values are replaced, the rest
 * kept. Names and values are compared decoded, as the query parser reads them: `?%71=` is `q`.
 */
const REDACTED_NAMES = /^(?:q|filter|api[_-]?key|key|token|access[_-]?token|secret|password)$/i;
/** An API key's shape, under any name. */
const KEY_VALUE = /^(?:sk|pk)_/;
const KEY_IN_PATH = /(^|\/)(?:sk|pk)(?:_|%5f)[^/]*/gi;

export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const shownPath = path.includes('k_') || path.includes('%') ? path.replace(KEY_IN_PATH, '$1[redacted]') : path;
  if (at === -1) return shownPath;
  const pairs = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (eq === -1 || !(REDACTED_NAMES.test(decoded(name)) || KEY_VALUE.test(decoded(pair.slice(eq + 1)))))
        return pair;
      return `${name}=[redacted]`;
    });
  return `${shownPath}?${pairs.join('&')}`;
}

function decoded(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' ')).trim();
  } catch {
    return text;
  }
}
