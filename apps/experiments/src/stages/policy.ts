// The policy's stages: its initial weights (from policy.seed), and SFT on expert demonstrations
// played in the real engine through the same rollout code GRPO uses (assistant tokens trained
// only). SFT checkpoints every sft.saveEvery steps (weights, AdamW moments, the rest of the data
// order), so a killed run continues where it stopped and ends on the same weights.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import { ChatTurnCodec, type Episode, PolicyScorer, SftTrainer, demonstration, loadPolicy, realEngineSource, savePolicy } from '@diffworld/grpo';
import { type ModelConfig, checkpointDirName, constant, initialWeights, latestCheckpoint, parseHfConfig, pruneCheckpoints } from '@diffworld/mdlm-core';
import { type ExperimentContext, fmt } from './context.js';
import { type StageOutcome, artefact } from './runner.js';
import type { InitialPolicy } from '../policy-init.js';
import type { TokenizerArtefact } from './tokenizer.js';

export type Params = Record<string, Float32Array>;

/** What the policy stages share: its architecture, the chat codec and the evaluation scorer. */
export interface PolicySetup {
  model: ModelConfig;
  codec: ChatTurnCodec;
  tokenizerJson: string;
  /** The pretrained checkpoint the policy starts from (policy.init), if any. */
  init?: InitialPolicy;
  /** The scorer of evaluations and rollouts without a KV cache (built once per setup). */
  scorer(): Promise<PolicyScorer>;
}

/**
 * The policy's architecture and codec: a fresh `policy.model` on the run's tokenizer, or a pretrained
 * checkpoint (`init`, from policy.init) with its own config and tokenizer.
 */
export function policySetup(ctx: ExperimentContext, tok: TokenizerArtefact, init?: InitialPolicy): PolicySetup {
  const c = ctx.config;
  const model = init ? init.model : parseHfConfig({ ...c.policy.model, vocab_size: tok.tok.vocabSize }, 'policy.model');
  let scorer: Promise<PolicyScorer> | undefined;
  ctx.onRelease(() => (scorer = undefined));
  return {
    model,
    codec: new ChatTurnCodec(init ? init.tokenizer : tok.tok, { system: ctx.suite.agent.system() }),
    tokenizerJson: init ? init.tokenizerJson : tok.json,
    ...(init ? { init } : {}),
    scorer: () => (scorer ??= PolicyScorer.create(model, { batch: c.grpo.microBatch, seqLen: c.rollout.maxSeqLen, temperature: 1, ...ctx.providerOption })),
  };
}

/** A policy checkpoint a stage wrote: its directory and what downstream stages hash of it. */
export interface PolicyArtefact {
  label: string;
  dir: string;
  ref: unknown;
  params(): Promise<Params>;
}

const policyOf = (label: string, dir: string, s: StageOutcome<unknown>): PolicyArtefact => ({ label, dir, ref: artefact(s), params: async () => (await loadPolicy(dir)).params });

export async function basePolicyStage(ctx: ExperimentContext, setup: PolicySetup, tok: TokenizerArtefact): Promise<PolicyArtefact> {
  const c = ctx.config;
  const from = setup.init ? { init: c.policy.init, dir: setup.init.dir } : { model: c.policy.model, seed: c.policy.seed, tokenizer: tok.ref };
  const s = await ctx.runner.run('policy-base', from, async (dir) => {
    const weights = setup.init ? setup.init.params : initialWeights(setup.model, c.policy.seed);
    await savePolicy(join(dir, 'policy'), setup.model, setup.tokenizerJson, weights);
    return { parameters: Object.values(weights).reduce((a, w) => a + w.length, 0), from: setup.init ? setup.init.dir : 'random' };
  });
  return policyOf('base', join(s.dir, 'policy'), s);
}

interface SftResume {
  step: number;
  nextOptimizerStep: number;
  order: number[];
}

export async function sftStage(ctx: ExperimentContext, setup: PolicySetup, base: PolicyArtefact): Promise<PolicyArtefact> {
  const c = ctx.config;
  const inputs = { base: base.ref, env: c.env, seed: c.seed, sft: c.sft, rollout: c.rollout, provider: c.provider ?? null };
  const s = await ctx.runner.run('sft', inputs, async (dir) => {
    const rng = new Rng(c.seed).fork('sft');
    const pool = ctx.suite.tasks(ctx.suite.splits[0]!);
    const tasks = rng.sample(pool, Math.min(c.sft.demos, pool.length));
    const real = realEngineSource(ctx.suite);
    const demos: Episode[] = [];
    let wins = 0;
    for (const t of tasks) {
      const env = real.makeEnv();
      const d = await demonstration(
        env,
        t,
        ctx.suite.expert(t).map((a) => ctx.suite.agent.formatAction(a)),
        setup.codec,
        c.rollout,
        t.seed,
      );
      if (d.won) wins++;
      demos.push(d);
      await env.close?.();
    }
    ctx.log(`[sft] ${demos.length} expert demonstrations, ${wins} won within ${c.rollout.maxTurns} turns`);
    const trainer = await SftTrainer.create(
      { model: setup.model, batch: c.sft.batch, seqLen: c.rollout.maxSeqLen, schedule: constant(c.sft.lr), clipNorm: 1, ...ctx.providerOption },
      await base.params(),
    );
    const ckptDir = join(dir, 'checkpoints');
    let first = 0;
    let order: number[] = [];
    const latest = c.sft.saveEvery ? await latestCheckpoint(ckptDir) : undefined;
    if (latest) {
      const saved = await loadPolicy(latest.path);
      const st = saved.trainerState as unknown as SftResume;
      trainer.restore({ optimizer: saved.optimizer!, nextOptimizerStep: st.nextOptimizerStep });
      first = st.step;
      order = st.order;
      ctx.log(`[sft] resumed at step ${first} from ${latest.path}`);
    }
    // Epoch orders are forks keyed by step, so a resumed run draws the same rows as an uninterrupted one.
    const t0 = performance.now();
    let loss = Number.NaN;
    for (let step = first; step < c.sft.steps; step++) {
      if (order.length < c.sft.batch) order = [...order, ...rng.fork(`epoch${step}`).shuffle(demos.map((_, i) => i))];
      const rows = order.splice(0, c.sft.batch).map((i) => demos[i]!);
      const r = await trainer.step(rows);
      loss = r.loss;
      await ctx.metric({ stage: 'sft', step: step + 1, loss: r.loss, gradNorm: r.gradNorm, lr: r.lr });
      if ((step + 1) % 10 === 0 || step + 1 === c.sft.steps) {
        const el = (performance.now() - t0) / 1000;
        ctx.log(`[sft] step ${step + 1}/${c.sft.steps} loss ${r.loss.toFixed(4)} · ${fmt(el)} elapsed, eta ${fmt((el / (step + 1 - first)) * (c.sft.steps - step - 1))}`);
      }
      if (c.sft.saveEvery && (step + 1) % c.sft.saveEvery === 0 && step + 1 < c.sft.steps) {
        const st = trainer.state();
        const resume: SftResume = { step: step + 1, nextOptimizerStep: st.nextOptimizerStep, order };
        await savePolicy(join(ckptDir, checkpointDirName(step + 1)), setup.model, setup.tokenizerJson, trainer.params(), { optimizer: st.optimizer, trainerState: { ...resume } });
        await pruneCheckpoints(ckptDir, 2);
        ctx.log(`[sft] checkpoint step ${step + 1} saved`);
      }
    }
    await savePolicy(join(dir, 'policy'), setup.model, setup.tokenizerJson, trainer.params());
    await ctx.releaseGraphs();
    return { demos: demos.length, demosWon: wins, steps: c.sft.steps, finalLoss: loss };
  });
  return policyOf('sft', join(s.dir, 'policy'), s);
}

export const hasPolicy = (dir: string) => existsSync(join(dir, 'config.json'));
