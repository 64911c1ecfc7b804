import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { staffRoute } from '../../auth/route-access.js';
import { EVERY_ROLE } from '../../auth/staff-permissions.js';
import type { App } from '../../http/types.js';
import { CSV_TYPE, turnoverCsv } from './presenters.js';
import { TurnoverQuery, TurnoverReport } from './schemas.js';
import { turnoverReport } from './service.js';

/** Whether the caller asked for CSV: `format=csv`, or `Accept: text/csv` when `format` is left out. */
function wantsCsv(format: string | undefined, accept: string | undefined): boolean {
  return format === 'csv' || (format === undefined && /(^|,)\s*text\/csv\b/i.test(accept ?? ''));
}

/**
 * The turnover report (docs/reports.md): every role with orders:read, within its scope (an operator sees its
 * exchanges' figures only).
 */
export function reportRoutes({ db }: { db: Database }) {
  return async function routes(app: App) {
    app.get(
      '/reports/turnover',
      staffRoute('admin')({
        roles: EVERY_ROLE,
        permission: 'orders:read',
        errors: [400],
        schema: {
          operationId: 'getTurnoverReport',
          summary: 'Turnover of settled orders per currency, by day, exchange, staff user or currency; JSON or CSV',
          description:
            'Sums of the orders settled (moved to SUCCESS) from `from` to `to`, both included, by the days of `tz`. ' +
            'Figures are exact decimals; `income` is the spread against the reference rate the order was priced from. ' +
            '`format=csv` or `Accept: text/csv` returns the same rows as CSV (a header line, RFC 4180).',
          querystring: TurnoverQuery,
          response: {
            200: {
              description: 'The report',
              content: {
                'application/json': { schema: TurnoverReport },
                'text/csv': { schema: Type.String({ description: 'The same rows as CSV' }) },
              },
            },
          },
        },
      }),
      async (request, reply) => {
        const report = await turnoverReport(db, request.staff, request.query);
        if (!wantsCsv(request.query.format, request.headers.accept)) return report;
        const name = `turnover-${report.groupBy}-${report.from}-${report.to}.csv`;
        return reply
          .type(CSV_TYPE)
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(turnoverCsv(report.groupBy, report.data));
      },
    );
  };
}
