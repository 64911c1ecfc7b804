import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

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
    expect(() => loadConfig({ PORT: 'x', WEBHOOK_CONCURRENCY: '0' })).toThrow('Invalid configuration: PORT: must be a whole number; WEBHOOK_CONCURRENCY: must be >= 1');
  });
});
