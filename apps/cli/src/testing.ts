// Test helper: runs `diffworld …` in-process with captured output.
import type { CommandIO } from './command.js';
import { main } from './main.js';

export interface RunResult {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...argv: string[]): Promise<RunResult> {
  return runCliWithInput([], ...argv);
}

/** Like runCli, with `input` as the lines an interactive command reads. */
export async function runCliWithInput(input: readonly string[], ...argv: string[]): Promise<RunResult> {
  const out: string[] = [];
  const err: string[] = [];
  const lines = (async function* () {
    yield* input;
  })();
  const io: CommandIO = { out: (l) => out.push(l), err: (l) => err.push(l), input: lines };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
