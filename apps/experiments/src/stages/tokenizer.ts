// The tokenizer stage: the config's tokenizer.json, or a byte-level BPE trained on the env's corpus
// rows, the agent's system prompt, first user turns and expert actions (the policies share it).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChatRow, type WorldModelLayout, writeFileAtomic } from '@diffworld/dataset';
import type { EnvSuite } from '@diffworld/env-core';
import { Tokenizer, chatTrainingTexts, trainTokenizer } from '@diffworld/tokenizer';
import type { ExperimentContext } from './context.js';

export interface TokenizerArtefact {
  tok: Tokenizer;
  json: string;
  path: string;
  /** What downstream stages hash: the trained stage's hash and stats, or a given file's sha256. */
  ref: unknown;
}

export async function collectRows(suite: EnvSuite, split: string, episodes: number, seed: number, layout: WorldModelLayout = 'transition'): Promise<ChatRow[]> {
  const rows: ChatRow[] = [];
  for await (const r of suite.corpusRows({ split, episodes, seed, layout })) rows.push(r);
  return rows;
}

const load = (path: string, ref: unknown): TokenizerArtefact => {
  const json = readFileSync(path, 'utf8');
  return { tok: Tokenizer.fromJson(JSON.parse(json), path), json, path, ref };
};

export async function tokenizerStage(ctx: ExperimentContext): Promise<TokenizerArtefact> {
  const c = ctx.config;
  if (c.tokenizer.path) return load(c.tokenizer.path, { sha256: createHash('sha256').update(readFileSync(c.tokenizer.path)).digest('hex') });
  const { vocabSize, episodes } = c.tokenizer;
  const s = await ctx.runner.run('tokenizer', { env: c.env, seed: c.seed, vocabSize, episodes }, async (dir) => {
    const suite = ctx.suite;
    const train = suite.splits[0]!;
    const rows = await collectRows(suite, train, episodes, c.seed);
    const texts = [suite.agent.system(), ...rows.flatMap((r) => chatTrainingTexts(r.messages))];
    for (const t of suite.tasks(train).slice(0, episodes)) {
      const env = suite.createEnv();
      texts.push(suite.agent.firstUserTurn(await env.reset(t)), ...suite.expert(t).map((a) => suite.agent.formatAction(a)));
      await env.close?.();
    }
    const { json, stats } = await trainTokenizer(texts, { vocabSize });
    writeFileAtomic(join(dir, 'tokenizer.json'), `${JSON.stringify(json)}\n`);
    ctx.log(`[tokenizer] vocab ${stats.vocabSize} from ${(stats.chars / 1e6).toFixed(2)} M chars`);
    return { vocabSize: stats.vocabSize, chars: stats.chars };
  });
  return load(join(s.dir, 'tokenizer.json'), { hash: s.hash, result: s.result });
}
