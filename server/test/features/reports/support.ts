import { call, exactJson, type TestServer } from '../../helpers/server.js';

export async function turnover(server: TestServer, token: string, query: Record<string, string | number>) {
  const res = await call(server, 'GET', '/admin/reports/turnover', { token, query });
  if (res.status !== 200) throw new Error(`report failed: ${res.status} ${res.text}`);
  return exactJson(res.text) as { data: Record<string, any>[] };
}

/** Today's date in UTC, YYYY-MM-DD. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);
