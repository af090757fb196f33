// `diffworld`: routes argv to a command of the table, prints help, maps errors to exit codes.
import { EXIT, UsageError, parseCommandArgs, type Command, type CommandIO } from './command.js';
import { COMMANDS } from './commands/index.js';

const defaultIO: CommandIO = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};

function overview(prefix: readonly string[]): string {
  const matching = COMMANDS.filter((c) => prefix.every((w, i) => c.path[i] === w));
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

/** Finds the command whose path is the longest prefix of argv. */
function route(argv: string[]): { command: Command; rest: string[] } | undefined {
  let best: Command | undefined;
  for (const c of COMMANDS) {
    if (c.path.every((w, i) => argv[i] === w) && (!best || c.path.length > best.path.length)) best = c;
  }
  return best ? { command: best, rest: argv.slice(best.path.length) } : undefined;
}

export async function main(argv: string[], io: CommandIO = defaultIO): Promise<number> {
  const routed = route(argv);
  if (!routed) {
    const words = argv.filter((a) => !a.startsWith('-'));
    const isGroup = words.length > 0 && COMMANDS.some((c) => c.path[0] === words[0]);
    const asksHelp = argv.length === 0 || argv.includes('--help') || argv.includes('-h');
    if (asksHelp || isGroup) {
      io.out(overview(isGroup ? [words[0]!] : []));
      return asksHelp ? EXIT.ok : EXIT.badInput;
    }
    io.err(`diffworld: unknown command "${argv.join(' ')}"\n\n${overview([])}`);
    return EXIT.badInput;
  }
  const { command, rest } = routed;
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.help);
    return EXIT.ok;
  }
  try {
    return await command.run(parseCommandArgs(command, rest), io);
  } catch (e) {
    if (e instanceof UsageError || isBadInput(e)) {
      io.err(`diffworld ${command.path.join(' ')}: ${(e as Error).message}`);
      return EXIT.badInput;
    }
    io.err(`diffworld ${command.path.join(' ')}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.failure;
  }
}

/** Errors from packages that mean "your input is wrong" carry `badInput: true`. */
function isBadInput(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { badInput?: unknown }).badInput === true;
}
