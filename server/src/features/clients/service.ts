import type { Scope } from '../../db/scope.js';
import type { Database, Executor, Tx } from '../../db/database.js';
import { inTransaction, type Audit } from '../audit/service.js';
import { branchExists } from '../branches/service.js';
import { ClientError } from './errors.js';
import { present } from './presenters.js';
import * as repo from './repository.js';
import type { ClientFields } from './repository.js';
import { checkClientFields, type ClientInput } from './rules.js';
import type { CreateClientBody } from './schemas.js';
import { uniqueViolation } from '../../db/errors.js';

const EMAIL_KEY = 'clients_branch_email_key';

/** The client a new order names (its id and branch), in the key's scope. */
export const findClientRef: typeof repo.findClientRef = (...args) => repo.findClientRef(...args);
export const findClient: typeof repo.findClient = (...args) => repo.findClient(...args);
export const listClients: typeof repo.listClients = (...args) => repo.listClients(...args);
export const searchClients: typeof repo.searchClients = (...args) => repo.searchClients(...args);

function validated(input: ClientInput): Partial<ClientFields> {
  const result = checkClientFields(input);
  if (!result.ok) throw ClientError.invalidFields(result.problems);
  return result.fields;
}

/**
 * The scope a new client is created in: the key's branch (a superadmin's key, which reaches every branch,
 * names one with `branchId`) and the key's exchanges, all of the branch's for a branch-wide key.
 */
async function creationScope(
  tx: Tx,
  scope: Scope,
  branchId: number | undefined,
): Promise<Scope & { branchId: number }> {
  if (scope.branchId !== null) {
    if (branchId !== undefined) throw ClientError.branchNotAllowed();
    return { branchId: scope.branchId, exchangeIds: scope.exchangeIds };
  }
  if (branchId === undefined) throw ClientError.branchRequired();
  if (!(await branchExists(tx, branchId))) throw ClientError.branchNotFound();
  return { branchId, exchangeIds: null };
}

/** A client registered through the back office is audited (`audit`); a partner's is not, as with updates. */
export async function createClient(tx: Tx, scope: Scope, body: CreateClientBody, audit?: Audit) {
  const fields = validated(body) as ClientFields;
  const target = await creationScope(tx, scope, body.branchId);
  const client = await repo.insertClient(tx, target.branchId, fields);
  // An operator without exchanges could never read the client back; the insert is rolled back with this error.
  if ((await repo.associateWithScope(tx, client.id, target)) === 0) throw ClientError.noExchangeInReach();
  await audit?.record(tx, {
    action: 'client.create',
    entityType: 'client',
    entityId: client.id,
    branchId: client.branch_id,
    after: present(client),
  });
  return client;
}

/** A change through the back office is audited (`audit`); a partner's is not (decisions: "Audit log"). */
export async function updateClient(db: Database, scope: Scope, id: number, body: ClientInput, audit?: Audit) {
  const fields = validated(body);
  const write = async (tx: Executor) => {
    const before = audit && (await repo.findClient(tx, scope, id));
    const row = await repo.updateClient(tx, scope, id, fields);
    if (!row) throw ClientError.notFound();
    await audit?.record(tx, {
      action: 'client.update',
      entityType: 'client',
      entityId: id,
      branchId: row.branch_id,
      before: before && present(before),
      after: present(row),
    });
    return row;
  };
  return audit ? inTransaction(db, write) : write(db);
}

/** Two requests can race past any check for the same email; the unique constraint decides, never as a 500. */
export async function uniqueEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (uniqueViolation(err) === EMAIL_KEY) throw ClientError.emailTaken();
    throw err;
  }
}
