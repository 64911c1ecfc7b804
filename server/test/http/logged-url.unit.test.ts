import { describe, expect, it } from 'vitest';
import { loggedUrl } from '../../src/http/logged-url.js';

describe('loggedUrl', () => {
  it('keeps a URL without secrets as it is', () => {
    expect(loggedUrl('/api/v1/partner/offers')).toBe('/api/v1/partner/offers');
    expect(loggedUrl('/api/v1/partner/offers?limit=20&sort=-rate&cursor=abc')).toBe(
      '/api/v1/partner/offers?limit=20&sort=-rate&cursor=abc',
    );
    expect(loggedUrl('/api/v1/partner/orders?flag&limit=1')).toBe('/api/v1/partner/orders?flag&limit=1');
  });

  it('redacts the values of searches, filters, keys and tokens', () => {
    expect(loggedUrl('/x?q=ana%40x.io&limit=5')).toBe('/x?q=[redacted]&limit=5');
    expect(loggedUrl('/x?API-KEY=sk_branch_abc&Token=t')).toBe('/x?API-KEY=[redacted]&Token=[redacted]');
  });

  it('compares names and values decoded, as the query parser reads them', () => {
    // %71 is "q": the server searches by it, so the log must not keep it.
    expect(loggedUrl('/x?%71=ana%40x.io')).toBe('/x?%71=[redacted]');
    expect(loggedUrl('/x?api%5Fkey=abc')).toBe('/x?api%5Fkey=[redacted]');
    expect(loggedUrl('/x?note=%73k_branch_abc')).toBe('/x?note=[redacted]');
    expect(loggedUrl('/x?bad=%E0%A4%A&limit=1')).toBe('/x?bad=%E0%A4%A&limit=1');
  });

  it('redacts a key put in the path', () => {
    expect(loggedUrl('/api/v1/partner/sk_branch_abc/orders?limit=1')).toBe('/api/v1/partner/[redacted]/orders?limit=1');
    expect(loggedUrl('/pk_abc')).toBe('/[redacted]');
    expect(loggedUrl('/api/v1/partner/sk%5Fbranch_abc')).toBe('/api/v1/partner/[redacted]');
    expect(loggedUrl('/api/v1/admin/desk_notes')).toBe('/api/v1/admin/desk_notes');
  });
});
