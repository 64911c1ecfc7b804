import type { Database, Executor } from '../../db/database.js';
import { uniqueViolation } from '../../db/errors.js';
import { type ListParams, mapPage } from '../../db/list.js';
import type { Scope } from '../../db/scope.js';
import type { Audit } from '../audit/service.js';
import { targetBranch } from '../branches/service.js';
import { checkWebhookUrl, UrlProblem } from '../delivery/service.js';
import { RateSourceError } from './errors.js';
import { auditedSource, rateSourceView } from './presenters.js';
import * as repo from './repository.js';
import type { CreateRateSourceInput, UpdateRateSourceInput } from './schemas.js';

const DEFAULT_INTERVAL_SECONDS = 60;
const DEFAULT_MAX_AGE_SECONDS = 300;

/** The pairs a source read last, as published, for the offers priced from it; undefined when it has none yet. */
export async function lastQuotes(db: Executor, id: number): Promise<Readonly<Record<string, string>> | undefined> {
  const row = await repo.findSource(db, { branchId: null, exchangeIds: null }, id);
  return row?.last_quotes ?? undefined;
}

/** Whether the source exists in the caller's branch (an offer may be priced only from its own branch's sources). */
export async function sourceInScope(db: Executor, scope: Scope, id: number): Promise<boolean> {
  return (await repo.findSource(db, scope, id)) !== undefined;
}

export async function listSources(db: Executor, scope: Scope, params: ListParams) {
  return mapPage(await repo.listSources(db, scope, params), rateSourceView);
}

export async function getSource(db: Executor, scope: Scope, id: number) {
  const row = await repo.findSource(db, scope, id);
  if (!row) throw RateSourceError.notFound();
  return rateSourceView(row);
}

export async function createSource(
  db: Database,
  audit: Audit,
  allowPrivateUrls: boolean,
  scope: Scope,
  input: CreateRateSourceInput,
) {
  const branchId = await targetBranch(db, scope, input.branchId);
  const url = await validUrl(input.url, allowPrivateUrls);
  return uniqueName(() =>
    db.transaction().execute(async (tx) => {
      const id = await repo.insertSource(tx, branchId, {
        name: input.name.trim(),
        kind: input.kind,
        url,
        intervalSeconds: input.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS,
        maxAgeSeconds: input.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS,
      });
      const source = rateSourceView((await repo.findSource(tx, scope, id))!);
      await audit.record(tx, {
        action: 'rateSource.create',
        entityType: 'rateSource',
        entityId: id,
        branchId,
        after: auditedSource(source),
      });
      return source;
    }),
  );
}

export async function updateSource(
  db: Database,
  audit: Audit,
  allowPrivateUrls: boolean,
  scope: Scope,
  id: number,
  patch: UpdateRateSourceInput,
) {
  const url = patch.url === undefined ? undefined : await validUrl(patch.url, allowPrivateUrls);
  return uniqueName(() =>
    db.transaction().execute(async (tx) => {
      if (!(await repo.lockSource(tx, scope, id))) throw RateSourceError.notFound();
      const before = rateSourceView((await repo.findSource(tx, scope, id))!);
      await repo.updateSource(tx, scope, id, { ...patch, name: patch.name?.trim(), url });
      const after = rateSourceView((await repo.findSource(tx, scope, id))!);
      await audit.record(tx, {
        action: 'rateSource.update',
        entityType: 'rateSource',
        entityId: id,
        branchId: after.branchId,
        before: auditedSource(before),
        after: auditedSource(after),
      });
      return after;
    }),
  );
}

/** Refused while offers are priced from the source; the row lock keeps an offer from being switched to it meanwhile. */
export async function deleteSource(db: Database, audit: Audit, scope: Scope, id: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    if (!(await repo.lockSource(tx, scope, id))) throw RateSourceError.notFound();
    const offers = await repo.countOffersOf(tx, id);
    if (offers > 0) throw RateSourceError.inUse(offers);
    const before = rateSourceView((await repo.findSource(tx, scope, id))!);
    await repo.deleteSource(tx, id);
    await audit.record(tx, {
      action: 'rateSource.delete',
      entityType: 'rateSource',
      entityId: id,
      branchId: before.branchId,
      before: auditedSource(before),
      after: { deleted: true },
    });
  });
}

/** The webhook URL rules, refused in the same words (docs/webhooks.md): a source is fetched as a webhook is sent. */
async function validUrl(url: string, allowPrivateUrls: boolean): Promise<string> {
  try {
    return (await checkWebhookUrl(url, allowPrivateUrls)).toString();
  } catch (err) {
    if (err instanceof UrlProblem) throw RateSourceError.urlRefused(err.code, err.message);
    throw err;
  }
}

/** A taken name is a 400, found by the constraint itself so that two concurrent writes cannot both pass. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (uniqueViolation(err) === 'rate_sources_name_key') throw RateSourceError.nameTaken();
    throw err;
  }
}

/** Each source's seconds since its last successful read (null: never), for the metrics. */
export async function sourceAges(db: Executor): Promise<{ sourceId: number; ageSeconds: number | null }[]> {
  return (await repo.sourceAges(db)).map((r) => ({ sourceId: r.id, ageSeconds: r.age_seconds }));
}
