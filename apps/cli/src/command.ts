// The shape every `diffworld` command has, and the errors that map to exit codes.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit codes: 0 ok, 1 failure while doing the work, 2 bad input (arguments or data). */
export const EXIT = { ok: 0, failure: 1, badInput: 2 } as const;

/** Thrown for anything the user can fix by changing the command line or the input files. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CommandIO {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Lines typed by the user (interactive commands); standard input when absent. */
  input?: AsyncIterable<string>;
}

export interface Command {
  /** Words after `diffworld`, e.g. ['data', 'validate']. */
  readonly path: readonly string[];
  readonly summary: string;
  /** Full help text: usage line, arguments, options, examples. */
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments the command takes; more are a usage error. Absent: not checked. */
  readonly maxPositionals?: number;
  run(args: ParsedArgs, io: CommandIO): Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: command.options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n\n${command.help}`);
  }
  const max = command.maxPositionals;
  if (max !== undefined && parsed.positionals.length > max) {
    throw new UsageError(`unexpected argument "${parsed.positionals[max]}" (takes ${max === 0 ? 'no arguments, only options' : `at most ${max}`})\n\n${command.help}`);
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

/** Typed accessors that turn a missing or malformed option into a UsageError naming it. */
export function stringOpt(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new UsageError(`--${name} takes a value`);
  return v;
}

export function requiredString(args: ParsedArgs, name: string): string {
  const v = stringOpt(args, name);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

export function numberOpt(args: ParsedArgs, name: string, fallback: number): number {
  const v = stringOpt(args, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${v}"`);
  return n;
}

export function intOpt(args: ParsedArgs, name: string, fallback: number): number {
  const n = numberOpt(args, name, fallback);
  if (!Number.isInteger(n)) throw new UsageError(`--${name} must be an integer, got ${n}`);
  return n;
}

/** An integer option that must be at least 1. */
export function positiveIntOpt(args: ParsedArgs, name: string, fallback: number): number {
  const n = intOpt(args, name, fallback);
  if (n < 1) throw new UsageError(`--${name} must be a positive integer, got ${n}`);
  return n;
}

export function positional(args: ParsedArgs, index: number, what: string): string {
  const v = args.positionals[index];
  if (v === undefined) throw new UsageError(`missing argument: ${what}`);
  return v;
}
