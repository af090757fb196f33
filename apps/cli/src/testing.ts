// Test helper: runs `diffworld …` in-process with captured output.
import type { CommandIO } from './command.js';
import { main } from './main.js';

export interface RunResult {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...argv: string[]): Promise<RunResult> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
