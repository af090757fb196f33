// SFT through mdlm-core's trainer (trainSft): what it trains and what it learns.
//   - the loss mask covers exactly the assistant turns: the trainer's examples, built from the
//     rollout recorder's ids and mask, equal the chat template's own encoding of the same
//     conversation (encodeChat, lossOn 'assistant'), which never saw the recorder;
//   - a tiny policy trained on a few ALFWorld expert demonstrations replays them: its greedy
//     actions in the real engine are the demonstration's, turn by turn (the base policy's are not);
//   - a run stopped half way and resumed ends on the uninterrupted run's weights.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '@diffworld/dataset';
import { envSuite } from '@diffworld/envs';
import { type ModelConfig, initialWeights, parseHfConfig } from '@diffworld/mdlm-core';
import { Tokenizer, encodeChat } from '@diffworld/tokenizer';
import { describe, expect, it } from 'vitest';
import { cachedPolicy } from './cached-policy.js';
import { ChatTurnCodec } from './chat-codec.js';
import { loadPolicy, savePolicy } from './policy-store.js';
import { type Episode, type RolloutLimits, demonstration, rollout } from './rollout.js';
import { episodeTargets, sftExample, sftPolicyDir, sftShape, trainSft } from './sft.js';
import { realEngineSource } from './sources.js';

const TOKENIZER = fileURLToPath(new URL('../../../test-data/tokenizer/ours.tokenizer.json', import.meta.url));
const tok = Tokenizer.load(TOKENIZER);
const tokJson = readFileSync(TOKENIZER, 'utf8');
const suite = envSuite('alfworld');
const codec = new ChatTurnCodec(tok, { system: suite.agent.system() });
const LIMITS: RolloutLimits = { maxTurns: 3, maxTokensPerTurn: 24, maxSeqLen: 4096 };
const MODEL: ModelConfig = parseHfConfig(
  {
    model_type: 'qwen3',
    vocab_size: tok.vocabSize,
    hidden_size: 48,
    intermediate_size: 96,
    num_hidden_layers: 2,
    num_attention_heads: 2,
    num_key_value_heads: 1,
    head_dim: 24,
    max_position_embeddings: 4096,
    rope_theta: 10000,
    rms_norm_eps: 1e-6,
    tie_word_embeddings: false,
  },
  'test policy',
);

async function expertDemos(n: number, limits: RolloutLimits): Promise<Episode[]> {
  const out: Episode[] = [];
  for (const task of suite.tasks(suite.splits[0]!).slice(0, n)) {
    const actions = suite.expert(task).map((a) => suite.agent.formatAction(a));
    out.push(await demonstration(realEngineSource(suite).makeEnv(), task, actions, codec, limits, task.seed));
  }
  return out;
}

async function basePolicy(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'sft-base-')), 'policy');
  await savePolicy(dir, MODEL, tokJson, initialWeights(MODEL, 3));
  return dir;
}

/** The policy's greedy actions, played in the real engine on each demonstration's task. */
async function greedyActions(dir: string, demos: readonly Episode[]): Promise<string[][]> {
  const { params } = await loadPolicy(dir);
  const policy = await cachedPolicy(MODEL, params, demos.length, { provider: 'cpu' });
  try {
    const rng = new Rng(5);
    const jobs = demos.map((d, i) => ({ task: d.task, groupId: d.task.id, env: realEngineSource(suite).makeEnv(), rng: rng.fork(i), seed: d.task.seed }));
    const eps = await rollout(policy, jobs, codec, { ...LIMITS, maxTurns: demos[0]!.turns }, { temperature: 0 });
    return eps.map((e) => e.actions);
  } finally {
    await policy.close();
  }
}

describe('SFT through the trainer', () => {
  it('trains exactly the assistant turns: the examples equal the chat template encoding of the conversation', async () => {
    const demos = await expertDemos(4, { ...LIMITS, maxTurns: 6 });
    for (const d of demos) {
      const ex = sftExample(d);
      // The reference: the conversation as text, encoded by the chat template (system prompt first).
      const ref = encodeChat(tok, [{ role: 'system', content: suite.agent.system() }, ...d.messages], { lossOn: 'assistant' });
      expect(Array.from(ex.ids), d.task.id).toEqual(ref.ids.slice(0, ex.ids.length));
      expect(Array.from(ex.target), d.task.id).toEqual(ref.lossMask.slice(0, ex.ids.length));
      // Nothing trained is cut: the rest of the reference is the final observation, no target.
      expect(
        ref.lossMask.slice(ex.ids.length).some((m) => m === 1),
        d.task.id,
      ).toBe(false);
      // One target run per assistant turn, each the action's tokens and <|im_end|>.
      let runs = 0;
      for (let i = 0; i < ex.target.length; i++) if (ex.target[i] && !ex.target[i - 1]) runs++;
      expect(runs, d.task.id).toBe(d.actions.length);
      expect(ex.target.reduce((a, b) => a + b, 0)).toBe(d.policyTokens);
    }
    expect(() => sftExample({ ids: [1, 2], lossMask: [1, 1] })).toThrow(/mask 1 on its first token/);
    expect(() => sftExample({ ids: [1, 2], lossMask: [0] })).toThrow(/2 ids but 1 mask entries/);
  }, 120_000);

  it('packs rows as long as the longest demonstration, as many as hold `batch` demonstrations', () => {
    expect(sftShape([100, 300, 200], 4, 2048)).toEqual({ rows: 3, rowTokens: 320 });
    expect(sftShape([1000], 1, 1000)).toEqual({ rows: 1, rowTokens: 1000 });
    expect(() => sftShape([5000], 1, 4096)).toThrow(/5000 tokens, the window \(rollout.maxSeqLen\) is 4096/);
  });

  it("loss 'episode': every token after the system message is a target, the system message none, the assistant turns still", async () => {
    const [d] = await expertDemos(1, { ...LIMITS, maxTurns: 4 });
    const from = d!.ids.indexOf(codec.endOfTurn) + 1;
    const ex = sftExample(episodeTargets(d!, from));
    // The system message (<|im_start|>system … <|im_end|>) trains nothing; everything after it does, to the last observation.
    expect(tok.decode(d!.ids.slice(0, from), { skipSpecialTokens: false })).toBe(`<|im_start|>system\n${suite.agent.system()}<|im_end|>`);
    expect(Array.from(ex.target.slice(0, from))).toEqual(new Array(from).fill(0));
    expect(ex.ids.length).toBe(d!.ids.length);
    expect(Array.from(ex.target.slice(from))).toEqual(new Array(d!.ids.length - from).fill(1));
    for (let i = 0; i < d!.ids.length; i++) if (d!.lossMask[i]) expect(ex.target[i]).toBe(1);
    expect(() => episodeTargets(d!, 0)).toThrow(/from must lie in \[1, /);
  });

  it('a tiny policy memorises a few expert demonstrations: its greedy actions replay them', async () => {
    const demos = await expertDemos(2, LIMITS);
    const base = await basePolicy();
    const out = join(mkdtempSync(join(tmpdir(), 'sft-run-')), 'run');
    const r = await trainSft({ demos, init: base, tokenizer: tok, tokenizerJson: tokJson, out, steps: 120, batch: 2, lr: 1e-2, seed: 1, maxSeqLen: LIMITS.maxSeqLen, weightDecay: 0, provider: 'cpu' });
    expect(r.finalLoss).toBeLessThan(0.05);
    const expected = demos.map((d) => d.actions);
    expect(await greedyActions(sftPolicyDir(out), demos)).toEqual(expected);
    expect(await greedyActions(base, demos)).not.toEqual(expected);
  }, 600_000);

  it('resumes a stopped run to the uninterrupted run’s weights', async () => {
    const demos = await expertDemos(2, { ...LIMITS, maxTurns: 1 });
    const base = await basePolicy();
    const opts = { demos, init: base, tokenizer: tok, tokenizerJson: tokJson, steps: 4, batch: 2, lr: 1e-2, seed: 1, maxSeqLen: LIMITS.maxSeqLen, saveEvery: 2, provider: 'cpu' as const };
    const straight = join(mkdtempSync(join(tmpdir(), 'sft-a-')), 'run');
    await trainSft({ ...opts, out: straight });
    const stopped = join(mkdtempSync(join(tmpdir(), 'sft-b-')), 'run');
    await trainSft({ ...opts, out: stopped, stopAfter: 2 });
    const lines: string[] = [];
    await trainSft({ ...opts, out: stopped, log: (l) => lines.push(l) });
    expect(lines.some((l) => l.includes('(step 2)'))).toBe(true);
    const a = (await loadPolicy(sftPolicyDir(straight))).params;
    const b = (await loadPolicy(sftPolicyDir(stopped))).params;
    for (const [k, v] of Object.entries(a)) expect(Array.from(b[k]!), k).toEqual(Array.from(v));
  }, 300_000);
});
