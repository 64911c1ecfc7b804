import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { usingPostgres } from '../helpers/database.js';
import { call, startTestServer } from '../helpers/server.js';
import { STARTS_PROCESSES } from '../helpers/processes.js';
import { cliDatabase, runPxs, type CliDatabase } from './run.js';

/** The `pxs` staff and keys commands, run as real processes against a real database. */
let cli: CliDatabase;
beforeAll(async () => {
  cli = await cliDatabase();
});
afterAll(() => cli?.close());

const pxs = (args: string[], options: { input?: string } = {}) => runPxs(args, cli.env, options.input);

describe('pxs against a database', STARTS_PROCESSES, () => {
  const PASSWORD = 'cli-password-123';

  it('migrates and seeds the demo', async () => {
    const migrate = await pxs(['migrate', '--json']);
    expect(migrate.code).toBe(0);
    expect(migrate.json).toEqual({ migrated: true });
    const seed = await pxs(['seed', '--demo', '--json']);
    expect(seed.code).toBe(0);
    expect(seed.json.staff.map((s: { email: string }) => s.email)).toContain('superadmin@demo.local');
  });

  let operatorId: number;
  it('creates a staff user, reading the password from stdin', async () => {
    const res = await pxs(
      [
        'staff',
        'create',
        '--email',
        'Ops@CLI.test',
        '--password-stdin',
        '--role',
        'operator',
        '--branch',
        '1',
        '--exchanges',
        '1,2',
        '--permissions',
        'orders:read,clients:read',
        '--json',
      ],
      { input: `${PASSWORD}\n` },
    );
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({
      email: 'ops@cli.test',
      role: 'operator',
      branchId: 1,
      exchangeIds: [1, 2],
      permissions: ['orders:read', 'clients:read'],
      isActive: true,
    });
    operatorId = res.json.id;
  });

  it('refuses bad staff input with clear messages and exit codes', async () => {
    const again = await pxs([
      'staff',
      'create',
      '--email',
      'ops@cli.test',
      '--password',
      PASSWORD,
      '--role',
      'operator',
      '--branch',
      '1',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('A staff user with this email already exists');
    const role = await pxs([
      'staff',
      'create',
      '--email',
      'x@cli.test',
      '--password',
      PASSWORD,
      '--role',
      'wizard',
      '--branch',
      '1',
    ]);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain('role');
    const exchange = await pxs([
      'staff',
      'create',
      '--email',
      'y@cli.test',
      '--password',
      PASSWORD,
      '--role',
      'operator',
      '--branch',
      '2',
      '--exchanges',
      '1',
    ]);
    // Not found is a refusal (1), as the README's exit codes say; 2 is for arguments that are not well formed.
    expect(exchange.code).toBe(1);
    expect(exchange.stderr).toContain('--exchanges: notFound');
    // A refusal names the option to set, not the API's field.
    const admin = await pxs(['staff', 'create', '--email', 'z@cli.test', '--password', PASSWORD, '--role', 'admin']);
    expect(admin.code).toBe(2);
    expect(admin.stderr).toContain('--branch is required for an admin');
    expect(admin.stderr).not.toContain('branchId');
  });

  it('lists staff', async () => {
    const res = await pxs(['staff', 'list', '--role', 'operator', '--json']);
    expect(res.code).toBe(0);
    expect(res.json.map((s: { email: string }) => s.email).sort()).toEqual(['operator@demo.local', 'ops@cli.test']);
    const text = await pxs(['staff', 'list']);
    expect(text.stdout).toContain('superadmin@demo.local');
  });

  const made: Record<string, { id: string; rawKey: string }> = {};
  it("creates keys under the API's rules", async () => {
    const personal = await pxs([
      'keys',
      'create',
      '--owner',
      'ops@cli.test',
      '--name',
      'ops tool',
      '--type',
      'personal',
      '--json',
    ]);
    expect(personal.code).toBe(0);
    expect(personal.json).toMatchObject({
      type: 'personal',
      rawKey: expect.stringMatching(/^sk_personal_/),
      note: expect.any(String),
    });
    const branch = await pxs([
      'keys',
      'create',
      '--owner',
      'superadmin@demo.local',
      '--name',
      'partner',
      '--type',
      'branch',
      '--branch',
      '1',
      '--expires',
      '2099-01-01T00:00:00Z',
      '--json',
    ]);
    expect(branch.code).toBe(0);
    expect(branch.json).toMatchObject({ type: 'branch', branchId: 1, expiresAt: '2099-01-01T00:00:00.000Z' });
    made.personal = personal.json;
    made.branch = branch.json;
    const refused = await pxs([
      'keys',
      'create',
      '--owner',
      String(operatorId),
      '--name',
      'x',
      '--type',
      'branch',
      '--branch',
      '1',
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Only a superadmin can create a branch key');
  });

  it('lists keys without their raw value', async () => {
    const res = await pxs(['keys', 'list', '--owner', 'ops@cli.test', '--json']);
    expect(res.code).toBe(0);
    expect(res.json).toHaveLength(1);
    expect(res.json[0]).toMatchObject({
      id: made.personal.id,
      replacedBy: null,
      keyPrefix: made.personal.rawKey.slice(0, 20),
      ownerId: operatorId,
      isActive: true,
    });
    expect(res.stdout).not.toContain(made.personal.rawKey);
  });

  it('rolls a key: a new raw key printed once, the old one kept until --expires', async () => {
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    const rolled = await pxs(['keys', 'roll', made.personal.id, '--expires', expires, '--json']);
    expect(rolled.code).toBe(0);
    expect(rolled.json).toMatchObject({
      type: 'personal',
      name: 'ops tool',
      rawKey: expect.stringMatching(/^sk_personal_/),
      previousKey: { id: made.personal.id, expiresAt: expires, replacedBy: rolled.json.id },
    });
    const list = await pxs(['keys', 'list', '--owner', 'ops@cli.test']);
    expect(list.stdout).toContain(`rolled to ${rolled.json.id}`);
    const again = await pxs(['keys', 'roll', made.personal.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already rolled');
    const tooLate = await pxs(['keys', 'roll', rolled.json.id, '--expires', '2099-01-01T00:00:00Z']);
    expect(tooLate.code).toBe(2);
    expect(tooLate.stderr).toContain('at most 7 days');
    expect((await pxs(['keys', 'roll', 'not-a-uuid'])).code).toBe(2);
  });

  it('limits a public key to some origins, changes them, and refuses what is not an origin', async () => {
    const made = await pxs([
      'keys',
      'create',
      '--owner',
      'superadmin@demo.local',
      '--name',
      'shop widget',
      '--type',
      'public',
      '--branch',
      '1',
      '--allowed-origins',
      'https://Shop.example, http://localhost:8080',
      '--json',
    ]);
    expect(made.code).toBe(0);
    expect(made.json).toMatchObject({
      type: 'public',
      allowedOrigins: ['https://shop.example', 'http://localhost:8080'],
    });
    const changed = await pxs(['keys', 'origins', made.json.id, '--allowed-origins', 'https://new.example']);
    expect(changed.code).toBe(0);
    expect(changed.stdout).toContain('may be used from https://new.example only');
    const opened = await pxs(['keys', 'origins', made.json.id, '--json']);
    expect(opened.json.allowedOrigins).toEqual([]);
    const bad = await pxs(['keys', 'origins', made.json.id, '--allowed-origins', 'https://new.example/page']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not an origin');
  });

  it('revokes a key and deactivates a staff user', async () => {
    const revoked = await pxs(['keys', 'revoke', made.branch.id, '--json']);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toEqual({ id: made.branch.id, revoked: true });
    expect((await pxs(['keys', 'revoke', '00000000-0000-4000-8000-000000000000'])).code).toBe(1);
    const off = await pxs(['staff', 'deactivate', 'ops@cli.test', '--json']);
    expect(off.code).toBe(0);
    expect(off.json).toMatchObject({ email: 'ops@cli.test', isActive: false });
    expect((await pxs(['staff', 'deactivate', 'nobody@cli.test'])).code).toBe(1);
  });

  it('leaves the API seeing what the CLI did', async () => {
    const database = cli.pg ?? { ...(await openDatabase({ dataDir: cli.dataDir })), url: undefined };
    const server = await startTestServer({ database });
    try {
      const list = (key: string) => call(server, 'GET', '/partner/offers', { key });
      expect((await list(made.branch.rawKey)).body.message).toBe('Invalid or revoked API key');
      expect((await list(made.personal.rawKey)).status).toBe(401);
      const login = await call(server, 'POST', '/auth/login', { body: { email: 'ops@cli.test', password: PASSWORD } });
      expect(login.status).toBe(401);
      // Every change the CLI made is in the audit log as the command line's, without the password or a raw key.
      const audit = await server.db
        .selectFrom('audit_log')
        .selectAll()
        .where('actor', '=', 'cli')
        .orderBy('id')
        .execute();
      expect(audit.map((r) => r.action)).toEqual([
        'staff.create',
        'apiKey.create',
        'apiKey.create',
        'apiKey.roll',
        'apiKey.create',
        'apiKey.update',
        'apiKey.update',
        'apiKey.revoke',
        'staff.update',
      ]);
      expect(audit.every((r) => r.role === 'cli' && r.staff_user_id === null && r.request_id === null)).toBe(true);
      expect(audit.find((r) => r.action === 'apiKey.revoke')).toMatchObject({
        entity_type: 'apiKey',
        entity_id: made.branch.id,
        branch_id: 1,
      });
      const logged = JSON.stringify(audit.map((r) => [r.before, r.after]));
      for (const secret of [PASSWORD, made.branch.rawKey, made.personal.rawKey]) expect(logged).not.toContain(secret);
    } finally {
      await server.close();
      if (!cli.pg) await database.close();
    }
  });
});

describe('pxs with a PostgreSQL it cannot reach', STARTS_PROCESSES, () => {
  it('exits 1 saying which setting and where it looked, never the password', async () => {
    // Port 1 on this machine: nothing listens, so the connection is refused at once.
    const res = await runPxs(['migrate'], {
      ...cli.env,
      DATABASE_URL: 'postgres://pxs:hunter2-secret@127.0.0.1:1/pxs',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^pxs migrate: DATABASE_URL: cannot reach PostgreSQL at 127\.0\.0\.1:1: .*ECONNREFUSED/m,
    );
    expect(res.stderr + res.stdout).not.toContain('hunter2-secret');
  });

  it.skipIf(!usingPostgres)('says which setting when PostgreSQL answers but has no such database', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/pxs_no_such_database';
    const res = await runPxs(['migrate'], { ...cli.env, DATABASE_URL: url.toString() });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^pxs migrate: DATABASE_URL: PostgreSQL at .+ refused: database "pxs_no_such_database" does not exist/m,
    );
  });
});
