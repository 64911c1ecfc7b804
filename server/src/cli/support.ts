import type { ParseArgsConfig } from 'node:util';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { loadConfig } from '../config/config.js';
import type { AppContext } from '../context.js';
import { findStaffForAuth } from '../features/staff/service.js';
import { asHttpError } from '../http/error-table.js';
import { startRuntime } from '../runtime.js';
import { CliError, EXIT } from './output.js';

/** The shape of an entry of the `commands` registry in main.ts. */
export interface CliCommand {
  summary: string;
  usage: string;
  options?: ParseArgsConfig['options'];
  /** How many words may follow the command's name (a subcommand and its argument); more is a usage error. */
  maxPositionals?: number;
  run(values: Record<string, unknown>, positionals: string[]): Promise<void>;
}

/**
 * Opens the database (migrated) and the process services for one command, and always closes them. `flags` names
 * the command's option for each API field it fills (`branchId` → `branch`), so a refusal speaks of `--branch`.
 */
export async function withRuntime<T>(
  work: (ctx: AppContext) => Promise<T>,
  flags: Record<string, string> = {},
): Promise<T> {
  const ctx = await startRuntime(loadConfig(), () => undefined);
  try {
    return await work(ctx);
  } catch (err) {
    throw toCliError(err, flags);
  } finally {
    await ctx.close();
  }
}

/**
 * The service's refusals, as the API would word them. Invalid input is a usage error (exit 2); a refusal of
 * valid input (not found, already exists, forbidden, a business rule) is a failure (exit 1).
 */
export function toCliError(thrown: unknown, flags: Record<string, string> = {}): unknown {
  const err = asHttpError(thrown);
  if (!err) return thrown;
  const fields = Object.entries(err.errors ?? {})
    .map(([field, code]) => `${field}: ${code}`)
    .join(', ');
  const said =
    err.messages === undefined ? fields : `${[err.messages].flat().join('; ')}${fields ? ` (${fields})` : ''}`;
  const names = Object.keys(flags);
  const message =
    names.length === 0
      ? said
      : said.replace(new RegExp(`\\b(${names.join('|')})\\b`, 'g'), (field) => `--${flags[field]}`);
  // A 400 naming a missing branch or exchange ("branchId: notFound") is a refusal of well-formed input.
  const invalidInput =
    err.statusCode === 400 &&
    !Object.values(err.errors ?? {}).some((code) => code === 'alreadyExists' || code === 'notFound');
  return new CliError(message, invalidInput ? EXIT.usage : EXIT.failure);
}

/** Checks command-line input against the API's own request schema, so both refuse the same things. */
export function checkInput(schema: TSchema, input: Record<string, unknown>): void {
  const problems = [...Value.Errors(schema, input)].map(
    (e) => `${e.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'input'}: ${e.message}`,
  );
  if (problems.length > 0) throw new CliError([...new Set(problems)].join('; '), EXIT.usage);
}

export function requireOption(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new CliError(`--${name} is required`, EXIT.usage);
  return value;
}

export function intOption(values: Record<string, unknown>, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[1-9]\d{0,8}$/.test(value))
    throw new CliError(`--${name} must be a positive integer`, EXIT.usage);
  return Number(value);
}

export function listOption(values: Record<string, unknown>, name: string): string[] | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  // Every list option is declared `type: 'string'`: parseArgs gives a string.
  return (value as string)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A staff user named on the command line by id or email. */
export async function findStaffRef(ctx: AppContext, ref: string) {
  const user = await findStaffForAuth(ctx.db, /^\d{1,9}$/.test(ref) ? { id: Number(ref) } : { email: ref });
  if (!user) throw new CliError(`No staff user ${ref}`, EXIT.failure);
  return user;
}

/** A password from --password, or from standard input with --password-stdin (kept out of shell history). */
export async function readPassword(values: Record<string, unknown>): Promise<string> {
  if (values['password-stdin']) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  return requireOption(values, 'password');
}

/**
 * The subcommand named first, of those allowed with how many arguments each takes. A word past those is refused: a
 * script running `pxs staff deactivate 5 6` would otherwise deactivate 5 alone and report success.
 */
export function subcommand(positionals: string[], allowed: Readonly<Record<string, number>>, usage: string): string {
  const [sub, ...args] = positionals;
  if (!sub || !Object.hasOwn(allowed, sub))
    throw new CliError(
      `${sub ? `unknown subcommand "${sub}"` : 'a subcommand is required'}\nUsage: ${usage}`,
      EXIT.usage,
    );
  if (args.length > allowed[sub])
    throw new CliError(`unexpected argument "${args[allowed[sub]]}"\nUsage: ${usage}`, EXIT.usage);
  return sub;
}
