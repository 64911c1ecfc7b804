import type { AppContext } from '../context.js';
import { rollApiKey } from '../features/api-keys/roll.js';
import { CreateApiKeyRequest, RollApiKeyRequest } from '../features/api-keys/schemas.js';
import { cliAudit } from '../features/audit/service.js';
import { apiKeyView } from '../features/api-keys/presenters.js';
import { createApiKey, listAllApiKeys, revokeApiKey, updateApiKey } from '../features/api-keys/service.js';
import { CliError, EXIT, print } from './output.js';
import {
  checkInput,
  findStaffRef,
  intOption,
  requireOption,
  subcommand,
  withRuntime,
  type CliCommand,
} from './support.js';

const USAGE = [
  'pxs keys create --owner <staff id|email> --name <name> --type personal|branch|public [--branch <id>] [--expires <ISO 8601>]',
  '                [--allowed-origins <origin>[,<origin>…]] [--json]',
  '       pxs keys list [--owner <staff id|email>] [--json]',
  '       pxs keys roll <key id> [--expires <ISO 8601>] [--json]',
  '       pxs keys origins <key id> [--allowed-origins <origin>[,<origin>…]] [--json]',
  '       pxs keys revoke <key id> [--json]',
  '',
  'roll: a new key of the same type, scope and owner, printed once; the old key works until --expires',
  '(default 24 hours from now, at most 7 days).',
  'A personal key acts as its owner; branch and public keys need a superadmin owner and --branch.',
  'A public key may be limited to the pages of some origins (scheme://host[:port]); `keys origins` without a list opens it to any.',
  'The raw key is printed once: store it. Revocation reaches running instances at once through Redis, else within 5 s.',
].join('\n');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function create(ctx: AppContext, values: Record<string, unknown>) {
  const owner = await findStaffRef(ctx, requireOption(values, 'owner'));
  if (!owner.is_active) throw new CliError(`Staff user ${owner.email} is inactive`, EXIT.failure);
  const input: Record<string, unknown> = { name: requireOption(values, 'name'), type: requireOption(values, 'type') };
  const branchId = intOption(values, 'branch');
  if (branchId !== undefined) input.branchId = branchId;
  if (values.expires !== undefined) input.expiresAt = values.expires;
  if (values['allowed-origins'] !== undefined) input.allowedOrigins = originList(values);
  checkInput(CreateApiKeyRequest, input);
  return createApiKey(
    ctx.db,
    cliAudit(),
    { staffUserId: owner.id, role: owner.role },
    input as Parameters<typeof createApiKey>[3],
    ctx.config.ownerLimits.personalKeysPerStaff,
  );
}

function originList(values: Record<string, unknown>): string[] {
  return ((values['allowed-origins'] as string | undefined) ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o.length > 0);
}

/** `pxs keys`: issue, list and revoke partner API keys from the command line. */
export const keysCommand: CliCommand = {
  maxPositionals: 2,
  summary: "Create, list, roll and revoke partner API keys, and set a public key's allowed origins",
  usage: USAGE,
  options: {
    owner: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string' },
    branch: { type: 'string' },
    expires: { type: 'string' },
    'allowed-origins': { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(values, positionals) {
    const json = Boolean(values.json);
    const sub = subcommand(positionals, { create: 0, list: 0, roll: 1, revoke: 1, origins: 1 }, USAGE);

    if (sub === 'create') {
      const key = await withRuntime((ctx) => create(ctx, values), {
        branchId: 'branch',
        expiresAt: 'expires',
        allowedOrigins: 'allowed-origins',
      });
      print(json, key, () => `Created ${key.type} key "${key.name}" (id ${key.id}).\n${key.note}\n${key.rawKey}`);
      return;
    }

    if (sub === 'list') {
      const keys = await withRuntime(async (ctx) => {
        const owner = values.owner === undefined ? undefined : (await findStaffRef(ctx, values.owner as string)).id;
        return (await listAllApiKeys(ctx.db, owner)).map((k) => ({ ...apiKeyView(k), ownerId: k.staff_user_id }));
      });
      print(json, keys, () =>
        keys.length === 0
          ? 'No keys.'
          : keys
              .map(
                (k) =>
                  `${k.id}\t${k.keyPrefix}…\t${k.type}\t"${k.name}"\towner ${k.ownerId}\tbranch ${k.branchId ?? '-'}\t${k.isActive ? 'active' : 'revoked'}${k.replacedBy ? `\trolled to ${k.replacedBy}` : ''}${k.expiresAt ? `\texpires ${new Date(k.expiresAt).toISOString()}` : ''}`,
              )
              .join('\n'),
      );
      return;
    }

    const id = positionals[1];
    if (!id || !UUID.test(id)) throw new CliError(`which key? Usage: pxs keys ${sub} <key id (uuid)>`, EXIT.usage);

    if (sub === 'roll') {
      const input = values.expires === undefined ? {} : { expiresAt: values.expires as string };
      checkInput(RollApiKeyRequest, input);
      const key = await withRuntime((ctx) => rollApiKey(ctx.db, ctx.keys, cliAudit(), { ownerId: null }, id, input));
      print(
        json,
        key,
        () =>
          `Rolled key ${id} to ${key.id}; the old key works until ${new Date(key.previousKey.expiresAt!).toISOString()}.\n${key.note}\n${key.rawKey}`,
      );
      return;
    }

    if (sub === 'origins') {
      const key = await withRuntime((ctx) =>
        updateApiKey(ctx.db, ctx.keys, cliAudit(), id, null, { allowedOrigins: originList(values) }),
      );
      print(
        json,
        key,
        () =>
          `Key ${id} ${key.allowedOrigins.length === 0 ? 'may be used from any origin' : `may be used from ${key.allowedOrigins.join(', ')} only`}.`,
      );
      return;
    }
    await withRuntime(async (ctx) => {
      if (!(await revokeApiKey(ctx.db, ctx.keys, id, null, cliAudit())))
        throw new CliError(`No API key ${id}`, EXIT.failure);
    });
    print(json, { id, revoked: true }, () => `Revoked key ${id}.`);
  },
};
