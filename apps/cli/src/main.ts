// `diffworld`: routes argv to a command of the table, prints help, maps errors to exit codes.
// Only the module of the command that runs is loaded (commands/index.ts).
import { EXIT, UsageError, parseCommandArgs, type CommandIO } from './command.js';
import { COMMANDS, loadCommand, type CommandEntry } from './commands/index.js';

const defaultIO: CommandIO = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};

const under = (prefix: readonly string[]) => COMMANDS.filter((c) => prefix.every((w, i) => c.path[i] === w));

function overview(prefix: readonly string[]): string {
  const matching = under(prefix);
  const width = Math.max(...matching.map((c) => c.path.join(' ').length), 10);
  const lines = matching.map((c) => `  diffworld ${c.path.join(' ').padEnd(width)}  ${c.summary}`);
  return [
    `Usage: diffworld ${prefix.length ? prefix.join(' ') + ' ' : ''}<command> [options]`,
    '',
    'Commands:',
    ...lines,
    '',
    'Run `diffworld <command> --help` for the options and examples of a command.',
  ].join('\n');
}

/** The command whose path is the longest prefix of argv. */
function route(argv: readonly string[]): CommandEntry | undefined {
  let best: CommandEntry | undefined;
  for (const c of COMMANDS) {
    if (c.path.every((w, i) => argv[i] === w) && (!best || c.path.length > best.path.length)) best = c;
  }
  return best;
}

/** How many leading words of argv are a prefix of some command path (a group such as `data`). */
function groupDepth(argv: readonly string[]): number {
  let depth = 0;
  while (depth < argv.length && under(argv.slice(0, depth + 1)).length > 0) depth++;
  return depth;
}

/** Neither a command nor a group: name the unknown word, suggest the nearest commands. */
async function unknown(argv: readonly string[], depth: number, io: CommandIO): Promise<number> {
  // Loaded here, not at startup: `diffworld --help` imports no package (main.test.ts checks it).
  const { nearest } = await import('./suggest.js');
  const prefix = argv.slice(0, depth);
  const word = argv[depth]!;
  const where = prefix.length ? ` under "diffworld ${prefix.join(' ')}"` : '';
  const what = word.startsWith('-') ? 'option' : 'command';
  const candidates = under(prefix).map((c) => c.path.join(' '));
  const typed = [word.replace(/^-+/, ''), ...argv.slice(depth + 1).filter((a) => !a.startsWith('-'))];
  const close = nearest(
    typed,
    candidates.map((c) => c.split(' ').slice(depth).join(' ')),
  ).map((c) => [...prefix, c].join(' '));
  const fallback = close.length
    ? close
    : nearest(
        typed,
        COMMANDS.map((c) => c.path.join(' ')),
      );
  const lines = [`diffworld: unknown ${what} "${word}"${where}`];
  if (fallback.length) lines.push('', 'The nearest commands:', ...fallback.map((c) => `  diffworld ${c}`));
  lines.push('', prefix.length ? overview(prefix) : 'Run `diffworld --help` for the list of commands.');
  io.err(lines.join('\n'));
  return EXIT.badInput;
}

export async function main(argv: string[], io: CommandIO = defaultIO): Promise<number> {
  const asksHelp = argv.includes('--help') || argv.includes('-h');
  const entry = route(argv);
  if (!entry) {
    if (argv.length === 0) {
      io.out(overview([]));
      return EXIT.ok;
    }
    const depth = groupDepth(argv);
    const next = argv[depth];
    if (depth === 0 && (next === '--help' || next === '-h')) {
      io.out(overview([]));
      return EXIT.ok;
    }
    if (depth > 0 && (next === undefined || next.startsWith('-'))) {
      // A group such as `diffworld data`: list its commands (with --help that is the answer asked for).
      io.out(overview(argv.slice(0, depth)));
      return asksHelp ? EXIT.ok : EXIT.badInput;
    }
    return unknown(argv, depth, io);
  }
  const name = `diffworld ${entry.path.join(' ')}`;
  const rest = argv.slice(entry.path.length);
  const command = await loadCommand(entry);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.help);
    return EXIT.ok;
  }
  try {
    return await command.run(parseCommandArgs(command, rest), io);
  } catch (e) {
    const bad = badInputMessage(e);
    if (bad !== undefined) {
      io.err(`${name}: ${bad}`);
      return EXIT.badInput;
    }
    io.err(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.failure;
  }
}

/** System errors on a path the user named: a missing input, a directory where a file belongs… */
const PATH_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'a component of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'file name too long',
};

/**
 * The message for an error that means "your input is wrong", or undefined for a failure of ours.
 * Packages mark such errors with `badInput: true`; file-system errors on a named path count too.
 */
function badInputMessage(e: unknown): string | undefined {
  if (e instanceof UsageError) return e.message;
  if (typeof e !== 'object' || e === null) return undefined;
  const err = e as { badInput?: unknown; message?: unknown; code?: unknown; path?: unknown };
  if (err.badInput === true) return String(err.message);
  if (typeof err.code !== 'string' || typeof err.path !== 'string') return undefined;
  // mkdir -p fails with EEXIST only where a path component is a file.
  if (err.code === 'EEXIST' && (e as { syscall?: unknown }).syscall === 'mkdir') return `${err.path}: is a file where a directory is needed`;
  if (err.code in PATH_ERRORS) return `${err.path}: ${PATH_ERRORS[err.code]}`;
  return undefined;
}
