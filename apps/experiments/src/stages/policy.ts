// The policy's stages: its initial weights (from policy.seed), and SFT on expert demonstrations
// played in the real engine through the same rollout code GRPO uses (assistant tokens trained
// only), through mdlm-core's trainer (grpo's trainSft: packed rows, the fast step on CUDA). SFT
// checkpoints every sft.saveEvery steps (weights, AdamW moments; the data order is a function of
// the step), so a killed run continues where it stopped and ends on the same weights.
import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng } from '@diffworld/dataset';
import { ChatTurnCodec, PolicyScorer, episodeTargets, expertDemonstrations, loadPolicy, savePolicy, sftPolicyDir, trainSft } from '@diffworld/grpo';
import { type ModelConfig, initialWeights, latestCheckpoint, parseHfConfig } from '@diffworld/mdlm-core';
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

export async function sftStage(ctx: ExperimentContext, setup: PolicySetup, base: PolicyArtefact): Promise<PolicyArtefact> {
  const c = ctx.config;
  // `trainer`: SFT runs through mdlm-core's packed ar trainer (runs of the padded GraphUpdater path are not reused).
  const inputs = { base: base.ref, env: c.env, seed: c.seed, sft: c.sft, rollout: c.rollout, provider: c.provider ?? null, trainer: 'packed-ar' };
  const s = await ctx.runner.run('sft', inputs, async (dir) => {
    const rng = new Rng(c.seed).fork('sft');
    const pool = ctx.suite.tasks(ctx.suite.splits[0]!);
    const tasks = rng.sample(pool, Math.min(c.sft.demos, pool.length));
    const demos = await expertDemonstrations(ctx.suite, tasks, setup.codec, c.rollout);
    const wins = demos.filter((d) => d.won).length;
    ctx.log(`[sft] ${demos.length} expert demonstrations, ${wins} won within ${c.rollout.maxTurns} turns`);
    // mdlm-core's trainer on the demonstrations' own ids (packed rows, the fast step on CUDA); a
    // killed run resumes from its latest checkpoint in run/ and ends on the same weights.
    if (c.sft.steps === 0) {
      // No SFT asked for: the policy is the base one (the trainer runs at least one step).
      await cp(base.dir, join(dir, 'policy'), { recursive: true });
      return { demos: demos.length, demosWon: wins, steps: 0, finalLoss: Number.NaN };
    }
    const runDir = join(dir, 'run');
    const latest = existsSync(runDir) ? await latestCheckpoint(runDir) : undefined;
    if (latest) ctx.log(`[sft] resumed at step ${latest.step} from ${latest.path}`);
    const t0 = performance.now();
    // sft.loss 'episode': the loss on every token after the system message (its <|im_end|>).
    const demosTrained = c.sft.loss === 'episode' ? demos.map((d) => episodeTargets(d, d.ids.indexOf(setup.codec.endOfTurn) + 1)) : demos;
    const r = await trainSft({
      demos: demosTrained,
      init: base.dir,
      tokenizer: setup.codec.tokenizer,
      tokenizerJson: setup.tokenizerJson,
      out: runDir,
      steps: c.sft.steps,
      batch: c.sft.batch,
      lr: c.sft.lr,
      ...(c.sft.schedule ? { schedule: c.sft.schedule } : {}),
      ...(c.sft.warmupRatio !== undefined ? { warmupRatio: c.sft.warmupRatio } : {}),
      ...(c.sft.minLrRatio !== undefined ? { minLrRatio: c.sft.minLrRatio } : {}),
      seed: c.seed,
      maxSeqLen: c.rollout.maxSeqLen,
      clipNorm: 1,
      ...(c.sft.saveEvery ? { saveEvery: c.sft.saveEvery } : {}),
      precision: c.sft.precision,
      ...ctx.providerOption,
      log: (l) => ctx.log(`[sft] ${l}`),
      onStep: (m) => ctx.metric({ stage: 'sft', step: m['step'], loss: m['loss'], gradNorm: m['grad_norm'], lr: m['lr'] }),
    });
    const seconds = (performance.now() - t0) / 1000;
    const trained = c.sft.steps - (latest?.step ?? 0);
    ctx.log(`[sft] ${trained} steps in ${fmt(seconds)} (${(trained / Math.max(seconds, 1e-9)).toFixed(2)} steps/s; ${r.rows} packed rows × ${r.rowTokens} tokens a step)`);
    await cp(sftPolicyDir(runDir), join(dir, 'policy'), { recursive: true });
    await ctx.releaseGraphs();
    return { demos: demos.length, demosWon: wins, steps: c.sft.steps, finalLoss: r.finalLoss, rows: r.rows, rowTokens: r.rowTokens };
  });
  return policyOf('sft', join(s.dir, 'policy'), s);
}

export const hasPolicy = (dir: string) => existsSync(join(dir, 'config.json'));
