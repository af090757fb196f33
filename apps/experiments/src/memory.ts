// A memory check before any work: the training graphs have fixed shapes (rows are padded to the
// window), so their peak memory follows from the config alone — attention scores grow with the
// square of the positions (bd3 sees 2 × seqLength of them), logits with positions × vocabulary.
// A config over the budget is refused with the setting to lower, instead of being OOM-killed
// minutes later (AppWorld's 20k-token world-model rows needed ~70 GB).
//
// Coefficients measured on the CPU provider (float32, peak RSS with /usr/bin/time -v; README):
//   world model bd3 2×32, 2 heads, batch 1: seqLength 2048 → 1.27 GB, 4096 → 3.31 GB
//   policy GRPO update 2×64, 4 heads, batch 1: window 1024 → 0.57 GB, 2048 → 0.92 GB
// i.e. 10–14 bytes per head, layer and squared position, plus the [S, S] attention bias; the
// estimate uses 16 (and 6 logits-sized buffers) so that it stays above what was measured.
// On CUDA (one H200, nvidia-smi peak): world model bd3 8×512, 8 heads, seqLength 4096, batch 1,
// 16 steps per call → 66.9 GB against an estimate of 70.4 GB, so the same budget check holds there.
import { totalmem } from 'node:os';
import { ExperimentError } from './errors.js';
import type { ExperimentConfig } from './config/schema.js';

/** Fixed cost of a process with ONNX Runtime, the tokenizer and the env loaded. */
const BASE_BYTES = 0.6e9;
/** Bytes per (batch row × head × layer × position²): scores, probabilities and their gradients. */
const ATTENTION_BYTES = 16;
/** Bytes per (batch row × position²) for the additive attention bias fed to the graph. */
const BIAS_BYTES = 4;
/** Bytes per (batch row × loss position × vocabulary entry): logits, log-softmax and gradients. */
const LOGITS_BYTES = 24;
/** Parameters, gradients, two AdamW moments and the graph's copies, float32. */
const PARAM_BYTES = 4 * 6;

export interface GraphShape {
  /** What the graph trains, for the error message. */
  what: string;
  batch: number;
  /** Positions the attention runs over (2 × seqLength for bd3). */
  positions: number;
  /** Positions with logits. */
  lossPositions: number;
  heads: number;
  layers: number;
  vocab: number;
  params: number;
}

export function estimateTrainingBytes(g: GraphShape): number {
  const s2 = g.positions * g.positions;
  return BASE_BYTES + g.params * PARAM_BYTES + g.batch * s2 * (BIAS_BYTES + ATTENTION_BYTES * g.heads * g.layers) + g.batch * g.lossPositions * g.vocab * LOGITS_BYTES;
}

const num = (m: Record<string, unknown>, k: string, fallback: number) => (typeof m[k] === 'number' ? (m[k] as number) : fallback);

function shapeOf(model: Record<string, unknown>, vocab: number): { heads: number; layers: number; params: number } {
  const d = num(model, 'hidden_size', 64);
  const layers = num(model, 'num_hidden_layers', 2);
  const ff = num(model, 'intermediate_size', 4 * d);
  const tied = model['tie_word_embeddings'] === true;
  // Embeddings (+ an untied head) and per layer 4 d² attention + 3 d·ff MLP: an upper bound with GQA.
  return { heads: num(model, 'num_attention_heads', 4), layers, params: vocab * d * (tied ? 1 : 2) + layers * (4 * d * d + 3 * d * ff) };
}

/** The training graphs a pipeline config builds, with their sizes. */
export function pipelineGraphs(c: ExperimentConfig, opts: { bothObjectives?: boolean } = {}): GraphShape[] {
  const vocab = c.tokenizer.vocabSize;
  const out: GraphShape[] = [];
  if (!c.worldModel.path && !c.worldModel.urls) {
    const t = c.worldModel.train;
    const seq = t.seqLength;
    // repro trains a bd3 model whatever the objective says, so bd3's doubled attention is what must fit.
    const bd3 = t.objective === 'bd3' || opts.bothObjectives === true;
    const m = shapeOf(t.model, vocab);
    out.push({
      what: `world-model training (worldModel.train.seqLength ${seq}${bd3 ? ', bd3 attends over 2 ×' : ''}, batchSize ${t.batchSize})`,
      batch: t.batchSize,
      positions: bd3 ? 2 * seq : seq,
      lossPositions: seq,
      vocab,
      ...m,
    });
  }
  // A pretrained policy (policy.init) brings its own vocabulary; a fresh one takes the run tokenizer's.
  const policyVocab = num(c.policy.model, 'vocab_size', vocab);
  const p = shapeOf(c.policy.model, policyVocab);
  const t = c.rollout.maxSeqLen;
  out.push({ what: `SFT (rollout.maxSeqLen ${t}, sft.batch ${c.sft.batch})`, batch: c.sft.batch, positions: t, lossPositions: t, vocab: policyVocab, ...p });
  out.push({ what: `the GRPO update (rollout.maxSeqLen ${t}, grpo.microBatch ${c.grpo.microBatch})`, batch: c.grpo.microBatch, positions: t, lossPositions: t, vocab: policyVocab, ...p });
  return out;
}

/** The budget in bytes: the config's memoryBudgetGB, else 75 % of this machine's memory for the CPU provider, else none. */
export function memoryBudgetBytes(c: ExperimentConfig): number | undefined {
  if (c.memoryBudgetGB !== undefined) return c.memoryBudgetGB * 1e9;
  return c.provider === undefined || c.provider === 'cpu' ? 0.75 * totalmem() : undefined;
}

const gb = (b: number) => `${(b / 1e9).toFixed(1)} GB`;

/** Throws ExperimentError('memory') naming the first graph whose estimate is over the budget. */
export function checkMemoryBudget(c: ExperimentConfig, budget = memoryBudgetBytes(c), opts: { bothObjectives?: boolean } = {}): { what: string; bytes: number }[] {
  const graphs = pipelineGraphs(c, opts).map((g) => ({ g, bytes: estimateTrainingBytes(g) }));
  if (budget === undefined) return graphs.map(({ g, bytes }) => ({ what: g.what, bytes }));
  for (const { g, bytes } of graphs) {
    if (bytes <= budget) continue;
    // The largest batch-1 window that fits, to say how far to go.
    let positions = g.positions;
    while (positions > 16 && estimateTrainingBytes({ ...g, batch: 1, positions, lossPositions: Math.min(g.lossPositions, positions) }) > budget) positions = Math.floor(positions * 0.9);
    throw new ExperimentError(
      'memory',
      `${g.what} needs about ${gb(bytes)} (attention over ${g.positions} positions × ${g.heads} heads × ${g.layers} layers, batch ${g.batch}), over the memory budget of ${gb(budget)}` +
        ` (memoryBudgetGB${c.memoryBudgetGB === undefined ? ', default 75 % of RAM' : ''}); at batch 1 about ${positions} positions fit — lower the setting named, or raise memoryBudgetGB on a larger machine`,
    );
  }
  return graphs.map(({ g, bytes }) => ({ what: g.what, bytes }));
}
