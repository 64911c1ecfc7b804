import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn, Logger } from 'pino';

const METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type Method = (typeof METHODS)[number];

/**
 * `request.log` without a pino child for every request. A child serializes its bindings (the request id, through
 * the redaction) when it is made, 4-5 µs of each request, and most requests write nothing at an enabled level:
 * this logger makes the child at its first call that writes, so every line carries the same bindings as before.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface below types the level methods the loop puts on the prototype
export class RequestLogger {
  #child: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.child().level = level;
  }

  /** With bindings, a child of the request's logger; without, the request's logger itself. */
  child(bindings?: Bindings, options?: ChildLoggerOptions): Logger {
    this.#child ??= this.parent.child(this.bindings);
    return bindings ? this.#child.child(bindings, options) : this.#child;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  silent(): void {}
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the class's level methods, set on its prototype below
export interface RequestLogger extends Record<Method, LogFn> {}

for (const method of METHODS) {
  RequestLogger.prototype[method] = function (this: RequestLogger, ...args: unknown[]) {
    if (!this.isLevelEnabled(method)) return;
    (this.child()[method] as (...a: unknown[]) => void)(...args);
  } as LogFn;
}

/** Fastify's `childLoggerFactory`: a route with a log level of its own gets a real child at once. */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) =>
  options.level
    ? logger.child(bindings, options)
    : (new RequestLogger(logger as Logger, bindings) as unknown as FastifyBaseLogger);
