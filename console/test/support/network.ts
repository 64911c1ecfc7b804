/**
 * The network as the console sees it: `fetch`, answered here from the replies a test declares, and every request
 * kept (method, path, query, headers, JSON body) for the test to read. A reply function that throws is a request
 * that never got an answer (the network failed). A request nobody declared is answered 404 and kept in
 * `unanswered`, so a test notices a call it did not expect.
 */
export interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}
export interface Reply {
  status?: number;
  body?: unknown;
}

type Answer = Reply | ((sent: Sent) => Reply);

const answers = new Map<string, Answer>();
export const sent: Sent[] = [];
export const unanswered: string[] = [];

/** Declares the reply to `METHOD /path` (the path without its query). */
export function reply(method: string, path: string, answer: Answer): void {
  answers.set(`${method} ${path}`, answer);
}

/** The requests sent to `METHOD /path`, oldest first. */
export function requests(method: string, path: string): Sent[] {
  return sent.filter((s) => s.method === method && s.path === path);
}

export function resetNetwork(): void {
  answers.clear();
  sent.length = 0;
  unanswered.length = 0;
}

export async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const text = await request.text();
  const one: Sent = {
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    body: text ? (JSON.parse(text) as unknown) : undefined,
  };
  sent.push(one);
  const answer = answers.get(`${one.method} ${one.path}`);
  if (answer === undefined) {
    unanswered.push(`${one.method} ${one.path}`);
    return json({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: `No reply declared for ${one.method} ${one.path}` },
    });
  }
  return json(typeof answer === 'function' ? answer(one) : answer);
}

function json({ status = 200, body }: Reply): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  });
}
