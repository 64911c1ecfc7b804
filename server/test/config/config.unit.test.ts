import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 10 connections', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
  });

  it('takes a whole number from 1 to 1000', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
  });

  it.each(['0', '1001', 'ten', '2.5'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE/);
  });
});

describe('integer settings', () => {
  it('refuse a fraction instead of truncating it', () => {
    expect(() => loadConfig({ PORT: '8080.5' })).toThrow('Invalid configuration: PORT: must be a whole number');
  });

  it('name every bad variable once', () => {
    expect(() => loadConfig({ PORT: 'x', WEBHOOK_CONCURRENCY: '0' })).toThrow(
      'Invalid configuration: PORT: must be a whole number; WEBHOOK_CONCURRENCY: must be >= 1',
    );
  });
});

describe('bounded settings', () => {
  // Past these, a lease overflowed SQL's int on every claim, a poll timer overflowed to 1 ms, and limits meant nothing.
  it.each([
    ['WEBHOOK_LEASE_MS', '3000000000'],
    ['WEBHOOK_TIMEOUT_MS', '2147482648'],
    ['WEBHOOK_POLL_MS', '3000000000'],
    ['WEBHOOK_RETRY_BASE_MS', '100000000000'],
    ['WEBHOOK_DEACTIVATE_AFTER', '3000000000'],
    ['WEBHOOKS_PER_OWNER', '3000000000'],
    ['PERSONAL_KEYS_PER_STAFF', '3000000000'],
    ['RATE_LIMIT_PER_MINUTE', '3000000000'],
    ['RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', '3000000000'],
    ['LOGIN_FAILURES_PER_ACCOUNT', '3000000000'],
    ['LOGIN_FAILURES_PER_IP', '3000000000'],
    ['BODY_LIMIT_BYTES', '3000000000'],
  ])('refuse %s=%s at start, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`Invalid configuration: ${name}: must be <= \\d+`));
  });
});

describe('choices', () => {
  it.each([
    ['LOG_LEVEL', 'verbose', 'fatal, error, warn, info, debug, trace, silent'],
    ['NODE_ENV', 'staging', 'development, production, test'],
    ['SEED_DEMO', 'yes', 'true, false'],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', '1', 'true, false'],
  ])('refuse %s=%s, listing what it takes', (name, value, allowed) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`Invalid configuration: ${name}: must be one of ${allowed}`);
  });
});

describe('an external staff panel (JWT_JWKS_URL)', () => {
  it('needs JWT_ISSUER and JWT_AUDIENCE, or a key set shared with other applications would let their tokens in', () => {
    expect(() => loadConfig({ JWT_JWKS_URL: 'https://panel.example/jwks.json' })).toThrow(
      'Invalid configuration: JWT_ISSUER: required with JWT_JWKS_URL; JWT_AUDIENCE: required with JWT_JWKS_URL',
    );
    expect(
      loadConfig({
        JWT_JWKS_URL: 'https://panel.example/jwks.json',
        JWT_ISSUER: 'https://panel.example',
        JWT_AUDIENCE: 'pxs',
      }).jwt.issuer,
    ).toBe('https://panel.example');
  });

  it('refuses JWT_ISSUER or JWT_AUDIENCE alone, which nothing would read', () => {
    expect(() => loadConfig({ JWT_ISSUER: 'https://panel.example' })).toThrow(
      'JWT_ISSUER: only used with JWT_JWKS_URL, which is not set',
    );
  });
});

describe('settings that go together', () => {
  it('name every missing one at once', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', BOOTSTRAP_ADMIN_EMAIL: 'root@example.com' })).toThrow(
      'Invalid configuration: JWT_SECRET: required in production; DATABASE_URL: required in production; BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD go together',
    );
  });
});

describe('development conveniences', () => {
  it('are defaults only on the embedded database', () => {
    expect(loadConfig({})).toMatchObject({ seedDemo: true, webhooks: { allowPrivateUrls: true } });
    // A deployment on PostgreSQL that forgot NODE_ENV=production: no demo logins, no webhooks into its network.
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/pxs' })).toMatchObject({
      seedDemo: false,
      webhooks: { allowPrivateUrls: false },
    });
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u@db/pxs', SEED_DEMO: 'true', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
    ).toMatchObject({ seedDemo: true, webhooks: { allowPrivateUrls: true } });
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('is off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(trust('false')).toBe(false);
  });

  it('trusts as many hops as there are proxies, one for true', () => {
    const one = trust('true') as (address: string, hop: number) => boolean;
    expect([one('10.0.0.1', 0), one('10.0.0.1', 1)]).toEqual([true, false]);
    const two = trust('2') as (address: string, hop: number) => boolean;
    expect([two('10.0.0.1', 1), two('10.0.0.1', 2)]).toEqual([true, false]);
  });

  it("takes the proxies' addresses and ranges", () => {
    expect(trust('10.0.0.0/8, 192.168.1.7,fd00::/8')).toBe('10.0.0.0/8,192.168.1.7,fd00::/8');
  });

  it.each(['yes', '10.0.0.0/33', 'proxy.local', '10.0.0.1/8/2', '100'])('refuses %s, naming the variable', (value) => {
    expect(() => trust(value)).toThrow(/TRUST_PROXY: must be true, false, the number of proxies/);
  });
});
