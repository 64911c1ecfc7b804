import { describe, expect, it } from 'vitest';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import document from '../../../sdk/openapi.json' with { type: 'json' };
import { describeValidationErrors } from '../../src/http/validation.js';

/** Every `pattern` of the document's request parameters and bodies. */
function patterns(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) patterns(n, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') out.add(value);
      else patterns(value, out);
    }
  }
  return out;
}

describe('validation messages', () => {
  it('say in words what each pattern of a request asks for, never the regular expression', () => {
    const requests = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((op: any) => [op.parameters, op.requestBody]),
    );
    const found = [...patterns(requests)];
    expect(found.length).toBeGreaterThan(5);
    for (const pattern of found) {
      const error = {
        keyword: 'pattern',
        instancePath: '/rate',
        schemaPath: '',
        params: { pattern },
        message: '',
      } as FastifySchemaValidationError;
      const [problem] = describeValidationErrors([error], 'body');
      expect(problem!.message, pattern).not.toContain(pattern);
      expect(problem!.message).toMatch(/^rate must /);
      expect(problem!.code).toBe('invalidFormat');
    }
  });
});
