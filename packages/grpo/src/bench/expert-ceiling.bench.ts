// The SFT ceiling under a config's limits: how many held-out games the expert itself wins when its
// demonstration is played through the rollout path (the same codec, turn limit and token window a
// policy gets; an episode ends when the window is full), on imported real games or the engine's own.
//   npx tsx --conditions=@diffworld/source packages/grpo/src/bench/expert-ceiling.bench.ts \
//     <tokenizer.json> <maxTurns> <maxSeqLen> [games.jsonl (diffworld env import output)] [--env alfworld] [--split S] [--tasks N]
import { readFileSync } from 'node:fs';
import type { TaskRef } from '@diffworld/env-core';
import { envSuite } from '@diffworld/envs';
import { Tokenizer } from '@diffworld/tokenizer';
import { ChatTurnCodec } from '../chat-codec.js';
import { expertDemonstrations } from '../sources.js';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const env = flag('--env') ?? 'alfworld';
const splitArg = flag('--split');
const limit = flag('--tasks');
const [tokPath, turns, window, gamesFile] = args;
if (!tokPath || !turns || !window) {
  console.error('usage: expert-ceiling.bench.ts <tokenizer.json> <maxTurns> <maxSeqLen> [games.jsonl] [--env E] [--split S] [--tasks N]');
  process.exit(2);
}
const suite = envSuite(env);
const split = splitArg ?? suite.splits[1]!; // the suite's evaluation split, as the pipeline's default
const all: TaskRef[] = gamesFile ? (await suite.loadGames!(gamesFile)).filter((t) => t.split === split) : suite.tasks(split);
const tasks = limit ? all.slice(0, Number(limit)) : all;
const tok = Tokenizer.fromJson(JSON.parse(readFileSync(tokPath, 'utf8')), tokPath);
const codec = new ChatTurnCodec(tok, { system: suite.agent.system() });
const limits = { maxTurns: Number(turns), maxSeqLen: Number(window), maxTokensPerTurn: 128 };
const demos = await expertDemonstrations(suite, tasks, codec, limits);
const wins = demos.filter((d) => d.won).length;
const lengths = demos.map((d) => d.ids.length);
lengths.sort((a, b) => a - b);
console.log(
  `${env} ${split}${gamesFile ? ` (${gamesFile})` : ''}: the expert wins ${wins}/${tasks.length} within ${turns} turns and a ${window}-token window; demonstration tokens median ${lengths[lengths.length >> 1]}, max ${lengths.at(-1)}`,
);
