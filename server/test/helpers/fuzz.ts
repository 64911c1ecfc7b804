import fc from 'fast-check';

/* Arbitraries that generate requests from the served OpenAPI document: mostly values of the declared shape, so
 * requests get past validation into the handlers, mixed with what an attacker would send instead. */

type Schema = Record<string, any>;

/** Text the database cannot store, inherited keys, numbers past every limit, deep nesting, empty things. */
export const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\udfff\ud800',
  '',
  ' ',
  'null',
  '__proto__',
  'constructor',
  'toString',
  "'; drop table orders; --",
  '%00',
  '\\u0000',
  '1e999',
  '-0',
  'NaN',
  '9'.repeat(400),
  'é'.repeat(3000),
  '😀'.repeat(50),
];
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'isPrototypeOf',
];
const HUGE_NUMBERS = [2 ** 31, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 5e-324, 1.5, -1, 0, 2 ** 63];

const deep = (depth: number, leaf: unknown): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...NASTY_STRINGS),
  fc.constantFrom<unknown>(...HUGE_NUMBERS),
  fc.constantFrom<unknown>(null, true, false, [], {}, [null], { __proto__: null, constructor: { a: 1 } }),
  fc.integer({ min: 1, max: 400 }).map((d) => deep(d, '\u0000')),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
);

function resolve(schema: Schema, doc: Schema): Schema {
  if (schema?.$ref) return resolve(doc.components.schemas[String(schema.$ref).split('/').pop()!], doc);
  return schema ?? {};
}

function stringOf(s: Schema): fc.Arbitrary<unknown> {
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'uri') return fc.webUrl();
  if (s.format === 'date-time')
    return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
  const max = Math.min(s.maxLength ?? 30, 60);
  return fc.string({
    minLength: Math.min(s.minLength ?? 0, max),
    maxLength: max,
    unit: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...'abcXYZ019 _-.+@') },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    ),
  });
}

function numberOf(s: Schema, integer: boolean): fc.Arbitrary<unknown> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
  const max = Math.min(s.maximum ?? 1_000_000, 2 ** 31 - 1);
  if (integer)
    return fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.max(min, max) }) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 12 }) },
    );
  return fc.oneof(
    fc.double({ min, max: Math.max(min, max), noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: 0, max: 5000 }),
  );
}

/** A value for `schema`: well-formed most of the time, nasty otherwise. */
export function valueOf(schema: Schema, doc: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  return fc.oneof({ weight: 5, arbitrary: shaped(s, doc, depth) }, { weight: 1, arbitrary: nastyValue });
}

function shaped(s: Schema, doc: Schema, depth: number): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a: Schema) => valueOf(a, doc, depth + 1)));
  const types: string[] = [s.type ?? (s.properties ? 'object' : 'string')].flat();
  return fc.oneof(
    ...types.map((t) => {
      switch (t) {
        case 'string':
          return stringOf(s);
        case 'integer':
          return numberOf(s, true);
        case 'number':
          return numberOf(s, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array':
          return depth > 4
            ? fc.constant([])
            : fc.array(valueOf(s.items ?? {}, doc, depth + 1), { maxLength: Math.min(s.maxItems ?? 4, 4) });
        default:
          return objectOf(s, doc, depth);
      }
    }),
  );
}

function objectOf(s: Schema, doc: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant({});
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, p] of Object.entries(props)) model[name] = valueOf(p, doc, depth + 1);
  const known = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  const extra = fc.dictionary(fc.constantFrom(...PROTOTYPE_KEYS, 'unknownField'), nastyValue, { maxKeys: 2 });
  return fc.tuple(known, fc.option(extra, { freq: 4 })).map(([k, e]) => (e ? { ...k, ...e } : k));
}

/** Field names of the lists' filters and sorts, real ones and ones inherited from Object.prototype. */
const LIST_FIELDS = [
  'id',
  'status',
  'createdAt',
  'updatedAt',
  'isActive',
  'exchangeId',
  'branchId',
  'type',
  'name',
  'role',
  'rate',
  'code',
  'event',
  'url',
  'colour',
  ...PROTOTYPE_KEYS,
];
const RANGE = fc.dictionary(
  fc.constantFrom('gte', 'gt', 'lte', 'lt', 'eq', '__proto__', 'constructor'),
  fc.oneof(fc.constantFrom('2025-01-01T00:00:00Z', '2025-13-45', '2025-01-01\u0000'), nastyValue),
  { maxKeys: 3 },
);

export const filterText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .dictionary(
        fc.constantFrom(...LIST_FIELDS),
        fc.oneof(
          fc.boolean(),
          fc.integer(),
          fc.constantFrom('SUCCESS', 'ORDERINIT', 'active', 'failed'),
          RANGE,
          nastyValue,
        ),
        { maxKeys: 3 },
      )
      .map((f) => JSON.stringify(f)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{',
      '[]',
      'null',
      '"x"',
      '{"__proto__":{"status":"SUCCESS"}}',
      '{"constructor":{"prototype":{}}}',
      '1e999',
      `${'['.repeat(3000)}${']'.repeat(3000)}`.slice(0, 1990),
    ),
  },
);
export const sortText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...LIST_FIELDS), fc.constantFrom('ASC', 'DESC', 'asc', 'sideways', '\u0000')), {
        maxLength: 3,
      })
      .map((s) => JSON.stringify(s)),
  },
  { weight: 1, arbitrary: fc.constantFrom('[', '{}', '[["id"]]', '[[1,2]]', '[["__proto__","ASC"]]', '[null]') },
);

/** The query-string value of a parameter: always text, as on the wire. */
export function paramText(name: string, schema: Schema, doc: Schema): fc.Arbitrary<string> {
  if (name === 'filter') return filterText;
  if (name === 'sort') return sortText;
  return valueOf(schema, doc).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')));
}
