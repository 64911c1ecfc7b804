/**
 * A refusal by the domain: a code from its feature's closed set (the feature's errors.ts) and the values its
 * message needs. It knows nothing of HTTP: http/error-table.ts turns each code into a status and a body, so
 * services and pure code can be read, called and tested without a request.
 */
export class DomainError<C extends string = string, D extends object = object> extends Error {
  constructor(
    readonly code: C,
    readonly details: D,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

/** The codes a declaration holds, read by the test that checks every code has its place in the error table. */
export const DECLARED_CODES = Symbol('declared domain error codes');

// `never[]` accepts a maker of any parameters; each keeps its own through Parameters<> below.
type Makers = Record<string, (...args: never[]) => object>;

export type Declared<P extends string, M extends Makers> = {
  readonly [K in keyof M & string]: (...args: Parameters<M[K]>) => DomainError<`${P}.${K}`, ReturnType<M[K]>>;
} & { readonly [DECLARED_CODES]: readonly string[] };

/**
 * Declares a feature's closed set of error codes, `<prefix>.<name>`: each maker turns its arguments into the
 * details its error carries (`{}` when the code says it all).
 */
export function declareErrors<P extends string, M extends Makers>(prefix: P, makers: M): Declared<P, M> {
  const declared: Record<string | symbol, unknown> = {};
  for (const [name, make] of Object.entries(makers)) {
    declared[name] = (...args: never[]) => new DomainError(`${prefix}.${name}`, make(...args));
  }
  declared[DECLARED_CODES] = Object.keys(makers).map((name) => `${prefix}.${name}`);
  return declared as Declared<P, M>;
}
