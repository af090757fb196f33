// SDAR-style block diffusion decoding over a block-causal model with a cache of committed blocks.
//
// Per request: the prompt's full blocks go to the cache; blocks are aligned to the request's own
// position 0, so a prompt tail shorter than a block is decoded as the first block with its
// prompt tokens fixed (SDAR generate.py; lmdeploy pads the prompt with masks the same way). Each
// block starts with every free position masked (anchored positions hold their tokens from the
// start); every step proposes a token for each masked position and the unmasking strategy
// commits some. A finished block is checked for stop ids (stop after it, cut at the first one)
// and is committed to the cache by the next forward pass — merged with the first denoising pass
// of the next block unless mergeCommit is false (the training mask allows both; §2.12).
// A token-shifted model (adapted from AR; trained with tokenShift) predicts position i from the
// output at i−1: inside a block from the query's i−1, at a block start from the last committed
// token, whose output the commit pass returns (BlockItem.commitEnd) and the row keeps until that
// position is filled.
import { checkTokenSampling, chooseToken, type TokenSampling } from './token.js';
import { badOption, SamplingError } from './errors.js';
import type { BlockDecoder, BlockDiffusionModel, BlockItem, GreedyChoices } from './model.js';
import { anchorMap, checkPositiveInt, checkPrompt, RowClock, type SampleRequest, type SampleResult } from './request.js';
import { selectUnmask, transferSchedule, UNMASKING_STRATEGIES, type UnmaskingStrategy } from './unmasking.js';

export interface BlockDiffusionOptions extends TokenSampling {
  maskId: number;
  maxNewTokens: number;
  /** Default 'low_confidence_dynamic'. */
  unmasking?: UnmaskingStrategy;
  /** Dynamic threshold τ (strict >); default 0.85. */
  threshold?: number;
  /** Steps per block for the per-step count k (default blockLength, i.e. k = 1). */
  denoisingSteps?: number;
  stopIds?: readonly number[];
  /**
   * Confidence of a proposed token: 'processed' (default) = softmax after penalty and temperature,
   * before top-k/top-p (lmdeploy); 'filtered' = under the filtered distribution (SDAR generate.py).
   */
  confidence?: 'processed' | 'filtered';
  /** Commit a finished block in the same forward as the next block's first step (default true). */
  mergeCommit?: boolean;
  /** Repetition penalty over prompt tokens too (default: only committed generated tokens, as lmdeploy's dLLM path). */
  penalizePrompt?: boolean;
  /** The model predicts token i at position i−1 (generation_config `token_shift`; default false). */
  tokenShift?: boolean;
  /**
   * Greedy decoding takes its choices from the model's forwardGreedy when it has one (default
   * true): the same tokens, without copying logits out; false reads the logits (for comparisons).
   */
  greedyInModel?: boolean;
}

interface Proposal {
  token: number;
  conf: number;
}

class BlockRow {
  readonly p: number;
  readonly anchors: Map<number, number>;
  /** One past the last anchored generated index: no stop id may be chosen before it. */
  readonly anchorEnd: number;
  blockStart: number;
  block: number[] = [];
  step = 0;
  generated: number[] = [];
  pending: number[];
  readonly penalize: Set<number>;
  /** Token shift: the block start's prediction, the last committed token's output (one result row). */
  carry: StepResult | undefined;
  done = false;
  finish: 'stop' | 'length' = 'length';

  constructor(
    readonly req: SampleRequest,
    readonly clock: RowClock,
    private readonly o: BlockDiffusionOptions,
    readonly b: number,
    vocab: number,
    private readonly stops: ReadonlySet<number>,
  ) {
    this.p = req.prompt.length;
    this.anchors = anchorMap(req.anchors, o.maxNewTokens, 'block diffusion', vocab);
    // A mask id in the prompt tail or an anchor would be taken for a position still to denoise.
    if (req.prompt.includes(o.maskId) || [...this.anchors.values()].includes(o.maskId)) {
      throw new SamplingError('bad_input', `block diffusion: the mask id ${o.maskId} appears in a prompt or anchor (seed ${req.seed})`);
    }
    this.anchorEnd = Math.max(0, ...[...this.anchors.keys()].map((g) => g + 1));
    this.blockStart = Math.floor(this.p / b) * b;
    this.pending = req.prompt.slice(0, this.blockStart);
    this.penalize = new Set(o.penalizePrompt ? req.prompt : []);
    this.openBlock();
  }

  /** Fills the block at blockStart: prompt tail and anchors fixed, the rest masked. */
  private openBlock(): void {
    for (;;) {
      this.block = Array.from({ length: this.b }, (_, i) => {
        const pos = this.blockStart + i;
        if (pos < this.p) return this.req.prompt[pos]!;
        return this.anchors.get(pos - this.p) ?? this.o.maskId;
      });
      this.step = 0;
      if (this.block.includes(this.o.maskId)) return;
      this.finishBlock(); // nothing to denoise (prompt tail + anchors fill it)
      if (this.done) return;
    }
  }

  /** A finished block: collect, check stops and length, queue it for the cache, open the next. */
  private finishBlock(): void {
    const gen = this.block.slice(Math.max(0, this.p - this.blockStart));
    const room = this.o.maxNewTokens - this.generated.length;
    const stopAt = gen.findIndex((t) => this.stops.has(t));
    if (stopAt >= 0 && stopAt < room) {
      this.generated.push(...gen.slice(0, stopAt));
      this.done = true;
      this.finish = 'stop';
      return;
    }
    this.generated.push(...gen.slice(0, room));
    if (this.generated.length >= this.o.maxNewTokens) {
      this.done = true;
      return;
    }
    for (const t of gen) this.penalize.add(t);
    this.pending.push(...this.block);
    this.blockStart += this.b;
    this.openBlock();
  }

  /** The block's masked positions, ascending. */
  masked(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.block.length; i++) if (this.block[i] === this.o.maskId) out.push(i);
    return out;
  }

  /** Index into `banLists` of what position i may not take: 1 (the mask and stop ids) before the last anchor, else 0 (the mask id). */
  banOf(i: number): number {
    return this.blockStart + i - this.p < this.anchorEnd ? 1 : 0;
  }

  /** A proposal for block position i from its logits row. */
  choose(row: Float32Array, i: number, banLists: readonly (readonly number[])[]): Proposal {
    const c = chooseToken(row, this.o, this.clock.rng, { banned: banLists[this.banOf(i)]!, penalize: this.penalize });
    return { token: c.token, conf: this.o.confidence === 'filtered' ? c.filteredProb : c.prob };
  }

  /** One denoising step: `propose(k, i)` gives the token and confidence for masked[k] = block position i. */
  update(masked: readonly number[], propose: (k: number, i: number) => Proposal, schedule: readonly number[], strategy: UnmaskingStrategy, threshold: number): void {
    const proposal = new Array<number>(this.b).fill(-1);
    const conf = new Float64Array(this.b).fill(-Infinity);
    for (let k = 0; k < masked.length; k++) {
      const i = masked[k]!;
      const c = propose(k, i);
      proposal[i] = c.token;
      conf[i] = c.conf;
    }
    const k = schedule[this.step] ?? 1;
    for (const i of selectUnmask(strategy, masked, conf, k, threshold)) this.block[i] = proposal[i]!;
    this.step++;
    if (!this.block.includes(this.o.maskId)) this.finishBlock();
  }
}

/** One item's result: logits [rows × V], or the greedy choices of its rows. */
type StepResult = Float32Array | GreedyChoices;

interface ReadPlan {
  logitsOf: number[];
  commitEnd: boolean;
  /** The block positions the result rows predict, in result order. */
  targets: number[];
  /** Per masked position (in `masked` order), its result row, or −1: the row's kept carry. */
  rowOf: number[];
}

/**
 * Which outputs a step reads for the masked positions `masked` of a row. Unshifted: each masked
 * position's own. Shifted: i−1's for i > 0, and for a masked block start the commit's last output
 * when this pass commits (`commitEnd`, the first row), else the row's kept carry.
 */
function readPlan(r: BlockRow, masked: readonly number[], shifted: boolean): ReadPlan {
  if (!shifted) return { logitsOf: [...masked], commitEnd: false, targets: [...masked], rowOf: masked.map((_, k) => k) };
  const inner = masked.filter((i) => i > 0);
  const start = masked[0] === 0;
  const commitEnd = start && r.pending.length > 0;
  if (start && !commitEnd && !r.carry) throw new SamplingError('bad_model', 'block diffusion: a token-shifted block start has no committed output to predict it');
  const first = commitEnd ? 1 : 0; // rows after the commit end's: i−1 for each masked i > 0, in order
  const rowOf = masked.map((i, k) => (i > 0 ? first + k - (start ? 1 : 0) : commitEnd ? 0 : -1));
  return { logitsOf: inner.map((i) => i - 1), commitEnd, targets: commitEnd ? [0, ...inner] : inner, rowOf };
}

/** Samples one completion per request; rows advance in lockstep, one batched forward per step. */
export async function sampleBlockDiffusion(model: BlockDiffusionModel, requests: readonly SampleRequest[], options: BlockDiffusionOptions): Promise<SampleResult[]> {
  const where = 'block diffusion';
  const b = model.blockLength;
  const o = { ...options };
  checkTokenSampling(o, where);
  checkPositiveInt(o.maxNewTokens, 'maxNewTokens', where);
  const strategy = o.unmasking ?? 'low_confidence_dynamic';
  if (!UNMASKING_STRATEGIES.includes(strategy)) throw badOption(where, `unknown unmasking strategy "${strategy}" (known: ${UNMASKING_STRATEGIES.join(', ')})`);
  const threshold = o.threshold ?? 0.85;
  if (!(threshold >= 0 && threshold <= 1)) throw badOption(where, `threshold must be in [0, 1], got ${threshold}`);
  const steps = o.denoisingSteps ?? b;
  checkPositiveInt(steps, 'denoisingSteps', where);
  if (!(Number.isInteger(o.maskId) && o.maskId >= 0 && o.maskId < model.vocabSize)) throw badOption(where, `maskId ${o.maskId} is outside the vocabulary [0, ${model.vocabSize})`);
  const stops = new Set(o.stopIds ?? []);
  if (stops.has(o.maskId)) throw badOption(where, 'the mask id cannot be a stop id');
  const schedule = transferSchedule(b, steps);
  const merge = o.mergeCommit ?? true;
  const shifted = o.tokenShift === true;
  const v = model.vocabSize;
  /** Result row k of `res` as block position i's proposal (the choice made in the model, or drawn from the logits). */
  const proposalAt = (r: BlockRow, res: StepResult, k: number, i: number): Proposal =>
    res instanceof Float32Array ? r.choose(res.subarray(k * v, (k + 1) * v), i, banLists) : { token: res.tokens[k]!, conf: res.probs[k]! };
  /** The first row of a result, kept as a shifted row's carry. */
  const firstRow = (res: StepResult): StepResult => (res instanceof Float32Array ? res.slice(0, v) : { tokens: res.tokens.slice(0, 1), probs: res.probs.slice(0, 1) });

  const t0 = performance.now();
  const rows = requests.map((req) => {
    checkPrompt(req.prompt, where, v);
    return new BlockRow(req, RowClock.for(req), o, b, v, stops);
  });
  const decoder: BlockDecoder = await model.open(rows.length);
  // Banned ids: the mask id always; stop ids too before a row's last anchor (see BlockRow.banOf).
  const banLists: readonly (readonly number[])[] = [[o.maskId], [o.maskId, ...stops]];
  // Greedy choices come from the model when it can make them (chooseToken's greedy case: no penalty).
  const greedy =
    o.temperature === 0 && (o.repetitionPenalty === undefined || o.repetitionPenalty === 1) && o.greedyInModel !== false && decoder.forwardGreedy ? decoder.forwardGreedy.bind(decoder) : undefined;
  try {
    for (;;) {
      const active = rows.map((r, i) => ({ r, i })).filter(({ r }) => !r.done);
      if (active.length === 0) break;
      if (!merge) {
        const committing = active.filter(({ r }) => r.pending.length);
        // shifted: a masked block start reads the commit's last output, kept for the block's steps
        const ends = committing.map(({ r }) => shifted && r.block[0] === o.maskId);
        const commits: BlockItem[] = committing.map(({ r, i }, n) =>
          ends[n] ? { row: i, commit: r.pending, commitEnd: true, ...(greedy && r.anchorEnd > 0 ? { banOf: [r.banOf(0)] } : {}) } : { row: i, commit: r.pending },
        );
        if (commits.length) {
          const out = greedy ? await greedy(commits, banLists) : await decoder.forward(commits);
          const answers = ends.filter((e) => e).length;
          if (out.length !== answers) throw new SamplingError('bad_model', `${where}: the model returned ${out.length} results for ${answers} commit outputs`);
          let a = 0;
          committing.forEach(({ r }, n) => {
            if (ends[n]) r.carry = firstRow(out[a++]!);
            r.pending = [];
            r.clock.forwards++;
          });
        }
      }
      // Only the masked positions' logits are read, so only theirs are asked for: position i's own
      // (unshifted), or i−1's, and the commit's last output for a masked block start (shifted).
      const masked = active.map(({ r }) => r.masked());
      const plans = active.map(({ r }, n) => readPlan(r, masked[n]!, shifted));
      const items: BlockItem[] = active.map(({ r, i }, n) => {
        const { logitsOf, commitEnd, targets } = plans[n]!;
        const it: BlockItem = r.pending.length ? { row: i, commit: r.pending, query: r.block, logitsOf } : { row: i, query: r.block, logitsOf };
        if (commitEnd) it.commitEnd = true;
        if (greedy && r.anchorEnd > 0) it.banOf = targets.map((p) => r.banOf(p));
        return it;
      });
      const out = greedy ? await greedy(items, banLists) : await decoder.forward(items);
      if (out.length !== items.length) throw new SamplingError('bad_model', `${where}: the model returned ${out.length} results for ${items.length} queries`);
      active.forEach(({ r }, n) => {
        const want = masked[n]!;
        const { targets, commitEnd, rowOf } = plans[n]!;
        const res = out[n]!;
        if (!(res instanceof Float32Array)) {
          if (res.tokens.length !== targets.length || res.probs.length !== targets.length)
            throw new SamplingError('bad_model', `${where}: greedy choices for row ${n} cover ${res.tokens.length} positions, expected ${targets.length}`);
        } else if (res.length !== targets.length * v) {
          throw new SamplingError('bad_model', `${where}: logits for row ${n} have ${res.length} values, expected ${targets.length} × ${v}`);
        }
        if (commitEnd) r.carry = firstRow(res);
        const propose = (k: number, i: number) => (rowOf[k]! < 0 ? proposalAt(r, r.carry!, 0, i) : proposalAt(r, res, rowOf[k]!, i));
        r.pending = [];
        r.clock.forwards++;
        r.update(want, propose, schedule, strategy, threshold);
        if (r.done) r.clock.ms = performance.now() - t0;
      });
    }
  } finally {
    await decoder.close();
  }
  return rows.map((r) => ({ tokens: r.generated, finish: r.finish, stats: r.clock.stats(r.generated.length) }));
}
