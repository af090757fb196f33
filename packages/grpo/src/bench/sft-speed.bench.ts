// SFT steps/s of the two update paths on the same expert demonstrations and the same policy:
//   padded   SftTrainer (GraphUpdater: float32, every row padded to rollout.maxSeqLen, state
//            through host memory), `sft.batch` demonstrations a step;
//   packed   trainSft (mdlm-core's trainer, objective ar: rows packed to the longest
//            demonstration), `sft.batch` demonstrations a step on average.
// Settings come from an experiments config (policy.model, rollout, sft) and a tokenizer.json (the
// pipeline's tokenizer stage writes one). Steps after the first (graph build, warm-up) are timed.
//   npx tsx --conditions=@diffworld/source packages/grpo/src/bench/sft-speed.bench.ts \
//     apps/experiments/configs/cpu.json tmp/grpo-alfworld/stages/tokenizer-*/tokenizer.json [steps]
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import { envSuite } from '@diffworld/envs';
import { constant, initialWeights, parseHfConfig } from '@diffworld/mdlm-core';
import { Tokenizer } from '@diffworld/tokenizer';
import { ChatTurnCodec } from '../chat-codec.js';
import { savePolicy } from '../policy-store.js';
import { SftTrainer, trainSft } from '../sft.js';
import { expertDemonstrations } from '../sources.js';

const [configPath, tokenizerPath, stepsArg] = process.argv.slice(2);
if (!configPath || !tokenizerPath) throw new Error('usage: sft-speed.bench.ts <experiments config.json> <tokenizer.json> [steps, default 6]');
const steps = Number(stepsArg ?? 6);
const c = JSON.parse(readFileSync(configPath, 'utf8')) as {
  env?: string;
  seed?: number;
  policy: { model: Record<string, unknown>; seed?: number };
  rollout: { maxTurns: number; maxTokensPerTurn: number; maxSeqLen: number };
  sft: { demos: number; batch: number; lr: number };
};
const tokJson = readFileSync(tokenizerPath, 'utf8');
const tok = Tokenizer.fromJson(JSON.parse(tokJson), tokenizerPath);
const suite = envSuite(c.env ?? 'alfworld');
const codec = new ChatTurnCodec(tok, { system: suite.agent.system() });
const model = parseHfConfig({ ...c.policy.model, vocab_size: tok.vocabSize }, 'policy.model');
const init = initialWeights(model, c.policy.seed ?? 0);

// The SFT stage's demonstrations: a seeded sample of the training split, played by the expert.
const rng = new Rng(c.seed ?? 0).fork('sft');
const pool = suite.tasks(suite.splits[0]!);
const demos = await expertDemonstrations(suite, rng.sample(pool, Math.min(c.sft.demos, pool.length)), codec, c.rollout);
const lengths = demos.map((d) => d.ids.length);
console.log(
  `${demos.length} demonstrations, ${Math.min(...lengths)}–${Math.max(...lengths)} tokens (mean ${Math.round(lengths.reduce((a, b) => a + b, 0) / lengths.length)}), window ${c.rollout.maxSeqLen}`,
);

const perSecond = (times: number[]) => (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);

// padded: one step = sft.batch demonstrations, each padded to the window
{
  const t0 = performance.now();
  const sft = await SftTrainer.create({ model, batch: c.sft.batch, seqLen: c.rollout.maxSeqLen, schedule: constant(c.sft.lr), clipNorm: 1, provider: 'cpu' }, init);
  const times: number[] = [];
  for (let s = 0; s <= steps; s++) {
    await sft.step(Array.from({ length: c.sft.batch }, (_, i) => demos[(s * c.sft.batch + i) % demos.length]!));
    times.push(performance.now());
  }
  console.log(
    `padded (GraphUpdater): ${perSecond(times).toFixed(3)} steps/s over ${steps} steps (${c.sft.batch} × ${c.rollout.maxSeqLen} token slots a step); first step incl. graphs ${((times[0]! - t0) / 1000).toFixed(1)} s`,
  );
}

// packed: the trainer, same demonstrations and settings
{
  const dir = mkdtempSync(join(tmpdir(), 'sft-speed-'));
  await savePolicy(join(dir, 'base'), model, tokJson, init);
  const times: number[] = [];
  const t0 = performance.now();
  const r = await trainSft({
    demos,
    init: join(dir, 'base'),
    tokenizer: tok,
    tokenizerJson: tokJson,
    out: join(dir, 'run'),
    steps: steps + 1,
    batch: c.sft.batch,
    lr: c.sft.lr,
    seed: c.seed ?? 0,
    maxSeqLen: c.rollout.maxSeqLen,
    provider: 'cpu',
    onStep: () => void times.push(performance.now()),
  });
  console.log(
    `packed (mdlm-core trainer): ${perSecond(times).toFixed(3)} steps/s over ${steps} steps (${r.rows} × ${r.rowTokens} token slots a step); first step incl. loading and graphs ${((times[0]! - t0) / 1000).toFixed(1)} s`,
  );
}
