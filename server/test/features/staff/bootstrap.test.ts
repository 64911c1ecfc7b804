import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../src/auth/password.js';
import { bootstrapSuperadmin } from '../../../src/features/staff/bootstrap.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const admin = { email: 'Root@Example.com', password: 'bootstrap-password-1' };
const superadmins = () =>
  server.db.selectFrom('staff_users').select(['email', 'branch_id']).where('role', '=', 'superadmin').execute();

describe('bootstrap of the first superadmin (BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD)', () => {
  it('does nothing when not configured', async () => {
    expect(await bootstrapSuperadmin(server.db, undefined)).toBe('notConfigured');
    expect(await superadmins()).toEqual([]);
  });

  it('reports an email already used by another staff user instead of failing', async () => {
    const branch = await server.db
      .insertInto('branches')
      .values({ name: 'B' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await server.db
      .insertInto('staff_users')
      .values({
        email: 'taken@example.com',
        password_hash: await hashPassword('whatever-password'),
        role: 'admin',
        branch_id: branch.id,
        updated_at: new Date(),
      })
      .execute();
    expect(await bootstrapSuperadmin(server.db, { email: 'taken@example.com', password: 'x'.repeat(12) })).toBe(
      'emailTaken',
    );
    expect(await superadmins()).toEqual([]);
  });

  it('creates exactly one superadmin, even when two instances start at once, who can log in', async () => {
    const results = await Promise.all([bootstrapSuperadmin(server.db, admin), bootstrapSuperadmin(server.db, admin)]);
    expect(results.sort()).toEqual(['created', 'superadminExists']);
    expect(await superadmins()).toEqual([{ email: 'root@example.com', branch_id: null }]);
    const res = await call(server, 'POST', '/auth/login', { body: admin });
    expect(res.status).toBe(200);
  });

  it('leaves an existing superadmin alone', async () => {
    expect(await bootstrapSuperadmin(server.db, { email: 'second@example.com', password: 'another-password-2' })).toBe(
      'superadminExists',
    );
    expect((await superadmins()).map((s) => s.email)).toEqual(['root@example.com']);
  });
});
