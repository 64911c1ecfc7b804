import { Readable } from 'node:stream';
import type { Executor } from '../../db/database.js';
import type { ListParams } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import { normalize } from '../pricing/decimal.js';
import type { ClientNameRow } from './presenters.js';
import { clientsByIds, listOrders } from './service.js';
import type { OrderRow } from './repository.js';
import { csvLine } from '../../http/csv.js';

/** Rows per query: a page held in memory at a time, whatever the export's length. */
export const EXPORT_PAGE = 1000;

const COLUMNS = [
  'id',
  'hashedId',
  'createdAt',
  'updatedAt',
  'status',
  'source',
  'operationType',
  'branchId',
  'exchangeId',
  'currency1',
  'currency2',
  'clientAmount',
  'exchangeAmount',
  'rate',
  'referenceRate',
  'clientId',
  'clientName',
  'createdById',
  'createdByEmail',
  'expiresAt',
] as const;

const decimal = (value: string | null) => (value === null ? null : normalize(value));

function csvRow(o: OrderRow, client: ClientNameRow | undefined): string {
  return csvLine([
    o.id,
    o.hashed_id,
    o.created_at.toISOString(),
    o.updated_at.toISOString(),
    o.status,
    o.source,
    o.operation_type,
    o.branch_id,
    o.cashbox_id,
    o.c1_code,
    o.c2_code,
    normalize(o.client_amount),
    normalize(o.exchange_amount),
    decimal(o.rate),
    decimal(o.reference_rate),
    client ? client.id : null,
    client ? `${client.first_name} ${client.last_name}` : null,
    o.created_by_staff_id,
    o.created_by_email,
    o.expires_at?.toISOString() ?? null,
  ]);
}

/**
 * The orders of a list's filter and sort as CSV, every match, read page by page after the previous page's cursor
 * (keyset paging, so each query costs the same however deep the export is). A page is read only when the reader has
 * taken the last one (Readable.from pulls), so a slow download holds one page, not the history.
 */
export function ordersCsv(db: Executor, scope: Scope, params: ListParams, withClients: boolean): Readable {
  async function* lines() {
    yield csvLine([...COLUMNS]);
    let cursor: string | undefined;
    do {
      const page = await listOrders(db, scope, {
        filter: params.filter,
        sort: params.sort,
        skip: 0,
        limit: EXPORT_PAGE,
        cursor,
      });
      const clients = withClients
        ? await clientsByIds(
            db,
            page.rows.flatMap((o) => (o.user_id === null ? [] : [o.user_id])),
          )
        : null;
      // One chunk per page: a write per row would cost more than the rows.
      if (page.rows.length > 0)
        yield page.rows.map((o) => csvRow(o, o.user_id === null ? undefined : clients?.get(o.user_id))).join('');
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  return Readable.from(lines(), { objectMode: false });
}
