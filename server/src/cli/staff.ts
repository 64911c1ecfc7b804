import type { StaffRole } from '../db/schema.js';
import { cliAudit } from '../features/audit/service.js';
import { CreateStaffRequest } from '../features/staff/schemas.js';
import {
  createStaffUser,
  listStaffUsers,
  SYSTEM_ACTOR,
  updateStaffUser,
  type StaffView,
} from '../features/staff/service.js';
import type { ListParams } from '../db/list.js';
import { CliError, EXIT, print } from './output.js';
import {
  checkInput,
  findStaffRef,
  intOption,
  listOption,
  readPassword,
  requireOption,
  subcommand,
  withRuntime,
  type CliCommand,
} from './support.js';

/** The API's names of what `staff create` takes, as its options are named. */
const STAFF_FLAGS = { branchId: 'branch', exchangeIds: 'exchanges', permissions: 'permissions', password: 'password' };

const USAGE = [
  'pxs staff create --email <email> (--password <p> | --password-stdin) --role superadmin|admin|operator',
  '                 [--branch <id>] [--exchanges <id,id>] [--permissions <p,p>] [--json]',
  '       pxs staff list [--branch <id>] [--role <role>] [--json]',
  '       pxs staff deactivate <id|email> [--json]',
  '',
  'Permissions: orders:read, orders:write, clients:read, clients:write, webhooks:manage, cash:write (used by operators).',
  'The CLI acts with superadmin powers; the first superadmin is made with: pxs staff create --role superadmin …',
].join('\n');

const ROLES: readonly StaffRole[] = ['superadmin', 'admin', 'operator'];

const describe = (s: StaffView) =>
  `${s.id}\t${s.email}\t${s.role}\tbranch ${s.branchId ?? '-'}\texchanges ${s.exchangeIds.join(',') || '-'}\t${s.isActive ? 'active' : 'inactive'}`;

/** `pxs staff`: manage staff users without the back office (the first superadmin, a locked-out admin). */
export const staffCommand: CliCommand = {
  maxPositionals: 2,
  summary: 'Create, list and deactivate staff users',
  usage: USAGE,
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    'password-stdin': { type: 'boolean' },
    role: { type: 'string' },
    branch: { type: 'string' },
    exchanges: { type: 'string' },
    permissions: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const json = Boolean(values.json);
    const sub = subcommand(positionals, { create: 0, list: 0, deactivate: 1 }, USAGE);

    if (sub === 'create') {
      const input = {
        email: requireOption(values, 'email'),
        password: await readPassword(values),
        role: requireOption(values, 'role'),
        branchId: intOption(values, 'branch'),
        exchangeIds: listOption(values, 'exchanges')?.map(Number),
        permissions: listOption(values, 'permissions'),
      };
      for (const key of Object.keys(input) as (keyof typeof input)[]) if (input[key] === undefined) delete input[key];
      checkInput(CreateStaffRequest, input);
      const created = await withRuntime(
        (ctx) => createStaffUser(ctx, SYSTEM_ACTOR, input as Parameters<typeof createStaffUser>[2], cliAudit()),
        STAFF_FLAGS,
      );
      print(json, created, () => `Created ${created.role} ${created.email} (id ${created.id}).`);
      return;
    }

    if (sub === 'list') {
      const filter: ListParams['filter'] = {};
      const branch = intOption(values, 'branch');
      if (branch !== undefined) filter.branchId = branch;
      if (values.role !== undefined) {
        if (!ROLES.includes(values.role as StaffRole))
          throw new CliError(`--role must be one of: ${ROLES.join(', ')}`, EXIT.usage);
        filter.role = values.role as StaffRole;
      }
      const { rows: data } = await withRuntime((ctx) =>
        listStaffUsers(ctx.db, SYSTEM_ACTOR, { skip: 0, limit: 100_000, filter, sort: [['id', 'ASC']] }),
      );
      print(json, data, () => (data.length === 0 ? 'No staff users.' : data.map(describe).join('\n')));
      return;
    }

    const ref = positionals[1];
    if (!ref) throw new CliError('which staff user? Usage: pxs staff deactivate <id|email>', EXIT.usage);
    const updated = await withRuntime(async (ctx) =>
      updateStaffUser(ctx, SYSTEM_ACTOR, (await findStaffRef(ctx, ref)).id, { isActive: false }, cliAudit()),
    );
    print(
      json,
      updated,
      () => `Deactivated ${updated.email} (id ${updated.id}): its tokens and personal keys no longer work.`,
    );
  },
};
