// The three world-model objectives as step-graph specs over packed batches, and the host side that
// turns a packed batch into their feeds (noising, positions, the attention bias of the layout).
//   ar    causal attention inside each sample; next-token loss on the target tokens.
//   mdlm  bidirectional attention inside each sample; masked-diffusion NELBO on masked targets.
//   bd3   SDAR/BD3-LM block diffusion: one pass over [x_t ; x_0] (2T tokens), noisy block b sees
//         itself and the clean blocks before it, the clean stream is block-causal; loss on x_t.
//         With `tokenShift` (models adapted from AR: Dream, Fast-dLLM v2), token i is predicted from
//         the output at i−1, as the AR model it started from predicts it: inside a block from the
//         noisy stream's i−1, at a block start from the clean stream's i−1 (the last token of the
//         previous block, which sees exactly its causal prefix) — what the sampler reads at inference.
// Packed samples never see each other, positions restart at 0 in every sample, and blocks are
// counted from the start of each sample (examples are padded to whole blocks, so they stay aligned).
// A sample may hold several target spans (an episode row: one per observation); each gets its own
// mask ratio. ar and bd3 then train every span on exactly what inference sees (ar: causal; bd3: each
// answer padded to a block boundary in data.ts, so a noisy block sees its own answer and earlier
// clean blocks only). mdlm attends the whole sample both ways, so an earlier span also sees the later
// turns, which its inference prompt does not have: for mdlm, transition rows are the faithful layout.
import type { Rng } from '@diffworld/dataset';
import { type Tensor, and, equal, greater, greaterOrEqual, less, lessOrEqual, not, or, reshape, unsqueeze, where } from '../graph/index.js';
import { ropeInputs, ropeTablesRange } from '../nn/rope.js';
import { type TransformerConfig, headDimOf, transformerForward, transformerParams } from '../nn/transformer.js';
import { blockDiffusionAllowed } from '../objectives/block-diffusion.js';
import { maskedDiffusionLoss, nextTokenLoss } from '../objectives/loss.js';
import { noiseSegments } from '../objectives/noise.js';
import { type HostTensor, hostTensor } from '../runtime/index.js';
import type { Objective, PackedBatch } from './data.js';
import type { StepGraphSpec } from './step.js';

export interface ObjectiveSpec {
  objective: Objective;
  model: TransformerConfig;
  /** Rows per (micro-)batch and tokens per row. */
  batch: number;
  length: number;
  blockLength: number;
  maskId: number;
  /** Mask-ratio range of the diffusion objectives (default [0.001, 1]). */
  maskRange?: readonly [number, number];
  /** bd3 only: predict token i from the output at i−1 (see the header; default false). */
  tokenShift?: boolean;
}

const NEG = -1e9;

/** Length of the sequence the model sees: 2T for bd3's [x_t ; x_0], T otherwise. */
export const modelLength = (s: ObjectiveSpec) => (s.objective === 'bd3' ? 2 * s.length : s.length);

export function objectiveStepSpec(s: ObjectiveSpec, opts: Pick<StepGraphSpec, 'optimizer' | 'clipNorm'> = {}): StepGraphSpec {
  // LFM2's convolutions run along the sequence causally: neither [x_t ; x_0] nor a bidirectional canvas is its computation.
  if (s.model.lfm2 && s.objective !== 'ar') throw new RangeError(`objective ${s.objective}: LFM2 models (causal convolutions) train with the ar objective only`);
  if (s.tokenShift && s.objective !== 'bd3') throw new RangeError(`objective ${s.objective}: tokenShift is a bd3 setting (ar predicts the next token already; mdlm has no shifted sampler)`);
  const S = modelLength(s);
  const B = s.batch,
    T = s.length;
  const diffusion = s.objective !== 'ar';
  const hd = headDimOf(s.model);
  const tables = ropeTablesRange(s.model, 0, T); // transformers' tables (scaled RoPE included), float32 values
  return {
    params: transformerParams(s.model),
    batch: [
      { name: 'input_ids', dtype: 'int64', shape: [B, S] },
      { name: 'position_ids', dtype: 'int64', shape: [B, S] },
      // The attention layout travels as two int64s per token and becomes the [B, 1, S, S] bias inside
      // the graph: building it on the host cost 1.9 s a step for bd3 at 8 × 1,024 tokens (3.9 s at
      // 1 × 4,096) on the dev machine, and shipping it 134 MB a step to the GPU.
      { name: 'segment_ids', dtype: 'int64', shape: [B, S] },
      ...(s.objective === 'bd3' ? [{ name: 'block_ids', dtype: 'int64' as const, shape: [B, S] }] : []),
      { name: 'loss_weights', dtype: 'float32', shape: [B, T] },
      ...(diffusion
        ? [
            { name: 'targets', dtype: 'int64' as const, shape: [B, T] },
            { name: 'normalizer', dtype: 'float32' as const, shape: [] },
          ]
        : []),
      // tokenShift: for each x_t position (b, t), the model position whose output predicts it.
      ...(s.tokenShift ? [{ name: 'logit_rows', dtype: 'int64' as const, shape: [B * T, 2] }] : []),
    ],
    loss: (p, b) => {
      // bd3: logits (and the loss) for the x_t half only; the clean half only provides keys and values.
      const logitsRange = s.objective === 'bd3' && !s.tokenShift ? ([0, T] as const) : undefined;
      const logits = transformerForward(s.model, p, {
        inputIds: b.input_ids!,
        mask: attentionBiasGraph(s, b.segment_ids!, b.block_ids),
        ...ropeInputs(tables, hd, b.position_ids!),
        // packed samples: LFM2's convolution taps stop at each sample's start, as its attention does
        ...(s.model.lfm2 ? { segmentIds: b.segment_ids! } : {}),
        ...(logitsRange ? { logitsRange } : {}),
        ...(s.tokenShift ? { logitsAt: b.logit_rows! } : {}),
      });
      if (!diffusion) return { loss: nextTokenLoss(logits, b.input_ids!, b.loss_weights!) };
      const V = s.model.vocabSize;
      return { loss: maskedDiffusionLoss(reshape(logits, [B * T, V]), reshape(b.targets!, [-1]), reshape(b.loss_weights!, [-1]), b.normalizer!, s.maskId) };
    },
    ...opts,
  };
}

/** Whether query i may attend to key j of one row under the objective's layout ([B·S] indexing per row). */
function allowedFn(s: ObjectiveSpec, row: PackedBatch, r: number): (q: number, k: number) => boolean {
  const T = s.length;
  const base = r * T;
  const sample = (i: number) => row.sample[base + (i % T)]!;
  const pos = (i: number) => Number(row.positions[base + (i % T)]!);
  switch (s.objective) {
    case 'ar':
      return (q, k) => (sample(q) < 0 ? q === k : sample(q) === sample(k) && k <= q);
    case 'mdlm':
      return (q, k) => (sample(q) < 0 ? q === k : sample(q) === sample(k));
    case 'bd3':
      // Positions inside a sample are multiples of the block from its start; map both streams onto
      // the sample's own 2n layout so blockDiffusionAllowed's index rules apply unchanged.
      return (q, k) => {
        if (sample(q) < 0) return q === k;
        if (sample(q) !== sample(k)) return false;
        const L = 1 << 30; // any length above every position: only block indices and streams matter
        return blockDiffusionAllowed(pos(q) + (q >= T ? L : 0), pos(k) + (k >= T ? L : 0), L, s.blockLength);
      };
  }
}

/** The additive attention bias [B, 1, S, S] of a packed batch. */
export function attentionBias(s: ObjectiveSpec, packed: PackedBatch): Float32Array {
  const S = modelLength(s);
  const out = new Float32Array(packed.batch * S * S);
  for (let r = 0; r < packed.batch; r++) {
    const allowed = allowedFn(s, packed, r);
    const base = r * S * S;
    for (let q = 0; q < S; q++) for (let k = 0; k < S; k++) if (!allowed(q, k)) out[base + q * S + k] = NEG;
  }
  return out;
}

/**
 * The same bias as `attentionBias`, computed in the graph from per-token sample indices
 * (`segment_ids`, −1 on padding) and, for bd3, block indices inside each sample (`block_ids`).
 * Which half of bd3's [x_t ; x_0] a position belongs to is static, so it is a constant here.
 */
export function attentionBiasGraph(s: ObjectiveSpec, segmentIds: Tensor, blockIds?: Tensor): Tensor {
  const g = segmentIds.graph;
  const S = modelLength(s);
  const index = g.constant(
    BigInt64Array.from({ length: S }, (_, i) => BigInt(i)),
    'int64',
    [S],
  );
  const [iq, ik] = [reshape(index, [S, 1]), reshape(index, [1, S])];
  const [segQ, segK] = [unsqueeze(segmentIds, [2]), unsqueeze(segmentIds, [1])]; // [B, S, 1], [B, 1, S]
  let allowed = equal(segQ, segK);
  if (s.objective === 'ar') allowed = and(allowed, lessOrEqual(ik, iq));
  if (s.objective === 'bd3') {
    if (!blockIds) throw new RangeError('attentionBiasGraph: bd3 needs block_ids');
    const T = s.length;
    const stream = (clean: boolean) =>
      g.constant(
        Uint8Array.from({ length: S }, (_, i) => +(i >= T === clean)),
        'bool',
        [S],
      );
    const clean = stream(true),
      noisy = stream(false);
    const [cleanQ, cleanK] = [reshape(clean, [S, 1]), reshape(clean, [1, S])];
    const [noisyQ, noisyK] = [reshape(noisy, [S, 1]), reshape(noisy, [1, S])];
    const [bq, bk] = [unsqueeze(blockIds, [2]), unsqueeze(blockIds, [1])];
    const blocks = or(
      or(and(and(noisyQ, noisyK), equal(bq, bk)), and(and(noisyQ, cleanK), greater(bq, bk))), // x_t: own block, earlier clean blocks
      and(and(cleanQ, cleanK), greaterOrEqual(bq, bk)), // clean stream: block-causal
    );
    allowed = and(allowed, blocks);
  }
  // padding attends to itself only (a softmax over nothing would be NaN)
  const padding = less(segQ, 0);
  allowed = or(and(padding, equal(iq, ik)), and(not(padding), allowed));
  return unsqueeze(where(allowed, 0, NEG), [1]);
}

/**
 * tokenShift's `logit_rows`: for x_t position t of row r, [r, source] with source the model position
 * whose output predicts its token — t−1 (noisy stream) inside a block, T + t − 1 (clean stream) at a
 * block start. A sample's first token and padding have no predecessor: they are never targets, and
 * take a position no target reads, because GatherND's gradient is a ScatterND(add) that must not see
 * a repeated index (ORT's CPU kernel adds repeats from several threads unlocked).
 */
export function shiftedLogitRows(s: ObjectiveSpec, packed: PackedBatch): BigInt64Array {
  const B = s.batch,
    T = s.length,
    block = BigInt(s.blockLength);
  const out = new BigInt64Array(B * T * 2);
  const used = new Uint8Array(2 * T);
  for (let r = 0; r < B; r++) {
    used.fill(0);
    const source = new Int32Array(T).fill(-1);
    for (let t = 0; t < T; t++) {
      const at = r * T + t;
      const pos = packed.positions[at]!;
      if (packed.sample[at]! < 0) continue;
      if (pos === 0n) {
        if (packed.target[at]) throw new RangeError(`shiftedLogitRows: row ${r} has a target at a sample's first token (${t}); nothing precedes it to predict it`);
        continue;
      }
      source[t] = pos % block !== 0n ? t - 1 : T + t - 1;
      used[source[t]!] = 1;
    }
    for (let t = 0; t < T; t++) {
      if (source[t]! < 0) {
        const free = !used[t] ? t : !used[T + t] ? T + t : used.indexOf(0);
        if (free < 0) throw new RangeError('shiftedLogitRows: no free position for a token without a predecessor');
        source[t] = free;
        used[free] = 1;
      }
      out[2 * (r * T + t)] = BigInt(r);
      out[2 * (r * T + t) + 1] = BigInt(source[t]!);
    }
  }
  return out;
}

/** A value per model position, from the row's token at that position (bd3's two halves repeat the row). */
function perModelPosition(s: ObjectiveSpec, packed: PackedBatch, value: (token: number) => bigint): BigInt64Array {
  const T = s.length,
    S = modelLength(s);
  const out = new BigInt64Array(packed.batch * S);
  for (let r = 0; r < packed.batch; r++) for (let i = 0; i < S; i++) out[r * S + i] = value(r * T + (i % T));
  return out;
}

/**
 * Feeds for one packed batch. Diffusion objectives draw their noise from `rng` (one mask ratio
 * per target span, only target tokens masked, 1/p weights, normalised by the batch's target tokens).
 */
export function objectiveFeeds(s: ObjectiveSpec, packed: PackedBatch, rng: Rng): Record<string, HostTensor> {
  if (packed.batch !== s.batch || packed.length !== s.length) throw new RangeError(`objectiveFeeds: batch is ${packed.batch}×${packed.length}, the graph takes ${s.batch}×${s.length}`);
  const B = s.batch,
    T = s.length,
    S = modelLength(s);
  const common = {
    // sample index (−1 on padding); bd3: block index inside the sample (positions restart per sample)
    segment_ids: hostTensor(
      'int64',
      perModelPosition(s, packed, (t) => BigInt(packed.sample[t]!)),
      [B, S],
    ),
    ...(s.objective === 'bd3'
      ? {
          block_ids: hostTensor(
            'int64',
            perModelPosition(s, packed, (t) => packed.positions[t]! / BigInt(s.blockLength)),
            [B, S],
          ),
        }
      : {}),
  };
  if (s.objective === 'ar') {
    return {
      ...common,
      input_ids: hostTensor('int64', packed.ids, [B, T]),
      position_ids: hostTensor('int64', packed.positions, [B, T]),
      loss_weights: hostTensor('float32', Float32Array.from(packed.target), [B, T]),
    };
  }
  const [eps, max] = s.maskRange ?? [1e-3, 1];
  // One mask ratio per target span (an episode row has one span per observation; a transition row one).
  const { noised, weights } = noiseSegments(packed.ids, packed.target, packed.spans, { maskId: s.maskId, rng, eps, max });
  let ids = noised,
    positions = packed.positions;
  if (s.objective === 'bd3') {
    ids = new BigInt64Array(B * S);
    for (let r = 0; r < B; r++) {
      ids.set(noised.subarray(r * T, (r + 1) * T), r * S);
      ids.set(packed.ids.subarray(r * T, (r + 1) * T), r * S + T);
    }
    positions = perModelPosition(s, packed, (t) => packed.positions[t]!);
  }
  return {
    ...common,
    input_ids: hostTensor('int64', ids, [B, S]),
    position_ids: hostTensor('int64', positions, [B, S]),
    targets: hostTensor('int64', packed.ids, [B, T]),
    loss_weights: hostTensor('float32', weights, [B, T]),
    normalizer: hostTensor('float32', Float32Array.of(Math.max(packed.targetTokens, 1)), []),
    ...(s.tokenShift ? { logit_rows: hostTensor('int64', shiftedLogitRows(s, packed), [B * T, 2]) } : {}),
  };
}
