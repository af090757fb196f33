// From a trained checkpoint directory to text: the chat template, the ONNX model and the sampler
// that match the checkpoint's objective (generation_config.json `objective`), stop ids, and
// batching. A request's result depends only on the request and its seed: the samplers give every
// row its own Rng and padded rows never see each other, so the batch a request lands in does not
// change its text.
//   bd3   block diffusion (SDAR): the trained block length (generation_config `block_length`, else 4),
//         low_confidence_dynamic unmasking at τ = 0.85, KV cache of committed blocks. An SDAR
//         checkpoint (model_type sdar) is bd3 by itself, with SDAR's settings (sdar.ts).
//   ar    left-to-right with a KV cache; the mask id (if any) is never sampled. A request may force
//         the answer's opening tokens (forcedPrefix), the one anchor left-to-right decoding honours.
//   mdlm  LLaDA canvas of maxNewTokens masks, one token per step, one block by default.
// Every objective decodes greedily (temperature 0) unless a temperature is given.
//
// An ar checkpoint can also decode continuously (openSession): one request at a time is submitted
// and awaited, and the session schedules the requests per iteration over a fixed set of rows
// (ContinuousAutoregressive), each with its own length and sampling; its text equals generate()'s
// for the same request, seed and options.
import { join } from 'node:path';
import type { ChatMessage } from '@diffworld/dataset';
import { Tokenizer } from '@diffworld/tokenizer';
import { promptIds } from '../train/data.js';
import { loadCheckpoint, weightArrays } from '../checkpoint/index.js';
import { parseHfConfig, type ModelConfig } from '../nn/config.js';
import type { ProviderName } from '../runtime/index.js';
import { sampleAutoregressive, type AutoregressiveOptions, type AutoregressiveRequest } from './autoregressive.js';
import { ContinuousAutoregressive, type RowOptions } from './continuous.js';
import { sampleBlockDiffusion } from './block-diffusion.js';
import { badOption, SamplingError } from './errors.js';
import { sampleLlada } from './llada.js';
import type { BidirectionalModel, BlockDiffusionModel, CausalModel } from './model.js';
import type { ResidentDtype } from './resident-decoder.js';
import { type DecoderKind, OnnxBidirectionalModel, OnnxBlockDiffusionModel, OnnxCausalModel, type Weights } from './onnx-models.js';
import type { Anchor, SampleResult } from './request.js';
import { decodeStepCost, prefillPassCost, splitByLength } from './length-groups.js';
import type { TokenSampling } from './token.js';
import { UNMASKING_STRATEGIES, type UnmaskingStrategy } from './unmasking.js';
import { type BlockDecodingSettings, sdarDecoding } from './sdar.js';

export const GENERATION_OBJECTIVES = ['ar', 'mdlm', 'bd3'] as const;
export type GenerationObjective = (typeof GENERATION_OBJECTIVES)[number];

/** Fixed text at generated token position `at` (the text is tokenized on its own, without specials). */
export interface TextAnchor {
  at: number;
  text: string;
}

export interface ChatRequest {
  /** The conversation to answer; the assistant header is appended (add_generation_prompt). */
  messages: readonly ChatMessage[];
  /** Seeds this request's own random stream (default: options.seed, else 0). */
  seed?: number;
  /** Spans of the answer fixed in advance (diffusion objectives only). */
  anchors?: readonly (Anchor | TextAnchor)[];
  /**
   * ar only: the answer starts with exactly these ids (no stop id among them, at most maxNewTokens),
   * fed with the prompt into the cache, and generation continues after them. They are part of
   * `tokenIds`/`text` and count as generated tokens. Diffusion objectives take an anchor at 0.
   */
  forcedPrefix?: readonly number[];
}

export interface GenerateOptions extends Partial<TokenSampling> {
  /** Default 256, capped at half of max_position_embeddings. */
  maxNewTokens?: number;
  /** Seed of requests that bring none (default 0). */
  seed?: number;
  /** Rows per sampler call (default 8, the reference eval_generate.py's per-batch). */
  batchSize?: number;
  /**
   * Prompts longer than this are not generated: finishReason 'overlong', empty text (the WeDLM
   * reference's SKIPPED_OVERLONG). Default: max_position_embeddings − maxNewTokens.
   */
  maxPromptTokens?: number;
  /** bd3: default 'low_confidence_dynamic'. */
  unmasking?: UnmaskingStrategy;
  /** bd3 dynamic threshold τ; default 0.85. */
  threshold?: number;
  /** bd3: steps per block (default the block length); mdlm: total steps (default maxNewTokens). */
  denoisingSteps?: number;
  /** mdlm: semi-autoregressive block length (default maxNewTokens: one block). */
  blockLength?: number;
  /** Extra stop ids on top of the checkpoint's. */
  stopIds?: readonly number[];
  /** Called after each sampler batch with the results so far (progress lines). */
  onBatch?: (done: number, total: number) => void;
}

/** A continuous session's settings (ar only); every request may override the length and sampling. */
export interface ChatSessionOptions extends Partial<TokenSampling> {
  /** Rows decoded together (default 8): the most requests in flight; the rest wait for a row. */
  rows?: number;
  /** While rows decode, waiting requests join once this many rows are free, or all of them fit (default 1; ContinuousAutoregressive). */
  admitAtLeast?: number;
  /** Default as generate's (256, capped at half of max_position_embeddings). */
  maxNewTokens?: number;
  /** Seed of requests that bring none (default 0). */
  seed?: number;
  /** Extra stop ids on top of the checkpoint's. */
  stopIds?: readonly number[];
}

/** One request's own settings in a session (unset: the session's), and an AbortSignal that withdraws it. */
export interface ChatSubmitOptions extends RowOptions {
  /** A request aborted while queued leaves at once; one decoding frees its row after the current step. It rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Longer prompts are not generated (finishReason 'overlong'); default max_position_embeddings − maxNewTokens. */
  maxPromptTokens?: number;
}

/** Continuous decoding over an ar generator: submit one chat request, await its Generation. */
export interface ChatSession {
  submit(request: ChatRequest, options?: ChatSubmitOptions): Promise<Generation>;
  /** Requests waiting for a row, and rows decoding now. */
  readonly load: { waiting: number; running: number };
  /** Decoding steps so far (one token for every running row; a step with joining requests runs their prefill as a second pass), and rows summed over them (rowSteps / steps: mean rows per step). */
  readonly stats: { steps: number; rowSteps: number; peakRows: number; cancelledRows: number };
  /** Waits for the requests submitted, then frees the rows. */
  close(): Promise<void>;
}

export type FinishReason = 'stop' | 'length' | 'overlong';

export interface GenerationStats {
  promptTokens: number;
  generatedTokens: number;
  forwards: number;
  tokensPerForward: number;
  /** Wall time from the start of this request's batch until it finished. */
  ms: number;
}

export interface Generation {
  text: string;
  /** Generated ids, cut before the first stop id. */
  tokenIds: number[];
  finishReason: FinishReason;
  stats: GenerationStats;
}

export interface GeneratorLoadOptions {
  provider?: ProviderName;
  /** Compute type of the inference graph (default float32); float16/bfloat16 need the resident decoder (ar, bd3; the default on CUDA). */
  dtype?: ResidentDtype;
  /** ar/bd3: which decoder keeps the caches (default resident on CUDA, host elsewhere; DecoderKind). */
  decoder?: DecoderKind;
  /** ar/bd3 on the resident decoder: decode steps replayed as CUDA graphs (default false; see ResidentDecoderOptions.cudaGraph). */
  cudaGraph?: boolean;
  /** Default 'kv' (cached); 'none' re-runs every committed token (the uncached reference). */
  cache?: 'kv' | 'none';
  intraOpThreads?: number;
  /** ONNX Runtime's intra-op spinning (default on); off suits a server on a shared CPU. */
  spinning?: boolean;
  /** Overrides generation_config.json `objective` (needed for checkpoints that lack it). */
  objective?: GenerationObjective;
  /** Overrides the checkpoint's tokenizer.json. */
  tokenizer?: Tokenizer;
}

/** The parts of a generator, for callers that hold them in memory already. */
export interface GeneratorParts {
  objective: GenerationObjective;
  config: ModelConfig;
  weights: Weights;
  tokenizer: Tokenizer;
  /** bd3 block length (default 4). */
  blockLength?: number;
  /** Required for bd3 and mdlm (default: the tokenizer's mask token). */
  maskId?: number;
  /** Stop ids; <|im_end|> and <|endoftext|> are always added when the vocabulary has them. */
  stopIds?: readonly number[];
  /** bd3: the model predicts token i at position i−1 (trained with tokenShift; generation_config `token_shift`). */
  tokenShift?: boolean;
  /** bd3: the checkpoint's own decoding defaults (SDAR's), used where generate options give none. */
  decoding?: Partial<Pick<BlockDecodingSettings, 'denoisingSteps' | 'threshold' | 'unmasking'>>;
  /** Where these parts came from, for messages. */
  source?: string;
}

type Backend = { kind: 'bd3'; model: BlockDiffusionModel; maskId: number } | { kind: 'ar'; model: CausalModel } | { kind: 'mdlm'; model: BidirectionalModel; maskId: number };

const DEFAULT_MAX_NEW_TOKENS = 256;
const DEFAULT_BATCH = 8;

const isTextAnchor = (a: Anchor | TextAnchor): a is TextAnchor => typeof (a as TextAnchor).text === 'string';

function stopIdsOf(gc: Record<string, unknown> | undefined, where: string): number[] {
  const v = gc?.['eos_token_id'];
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  for (const id of list)
    if (!(Number.isInteger(id) && (id as number) >= 0)) throw new SamplingError('bad_model', `${where}: eos_token_id must be a token id or a list of them, got ${JSON.stringify(v)}`);
  return list as number[];
}

export class ChatGenerator {
  readonly objective: GenerationObjective;
  readonly tokenizer: Tokenizer;
  readonly config: ModelConfig;
  /** The block length of bd3 decoding (undefined for ar and mdlm). */
  readonly blockLength: number | undefined;
  readonly maskId: number | undefined;
  /** bd3: token i is predicted at position i−1 (a model adapted from AR, trained shifted). */
  readonly tokenShift: boolean;
  readonly stopIds: readonly number[];
  readonly source: string;
  /** bd3 decoding defaults of the checkpoint (SDAR's settings for an SDAR checkpoint; empty otherwise). */
  readonly decoding: NonNullable<GeneratorParts['decoding']>;

  private constructor(
    private readonly backend: Backend,
    parts: GeneratorParts,
    stopIds: number[],
  ) {
    this.objective = parts.objective;
    this.tokenizer = parts.tokenizer;
    this.config = parts.config;
    this.blockLength = backend.kind === 'bd3' ? backend.model.blockLength : undefined;
    this.maskId = backend.kind === 'ar' ? (parts.maskId ?? parts.tokenizer.maskId) : backend.maskId;
    this.tokenShift = backend.kind === 'bd3' && parts.tokenShift === true;
    this.stopIds = stopIds;
    this.source = parts.source ?? 'in-memory model';
    this.decoding = parts.decoding ?? {};
  }

  /** Loads a Hugging Face checkpoint directory (a run's `model/` or `checkpoint-N/`). */
  static async load(dir: string, options: GeneratorLoadOptions = {}): Promise<ChatGenerator> {
    const ck = await loadCheckpoint(dir, { optimizer: false });
    const gc = ck.generationConfig;
    const where = join(dir, 'generation_config.json');
    const config = parseHfConfig(ck.config, join(dir, 'config.json'));
    // SDAR checkpoints are block-diffusion world models whatever their generation_config says.
    const sdar = config.blockDiffusion ? sdarDecoding(config, gc, where) : undefined;
    const objective = options.objective ?? (gc?.['objective'] as GenerationObjective | undefined) ?? (sdar ? 'bd3' : undefined);
    if (objective === undefined) throw new SamplingError('bad_model', `${where}: no "objective" (ar | mdlm | bd3); pass the objective explicitly for checkpoints trained elsewhere`);
    if (!GENERATION_OBJECTIVES.includes(objective)) throw new SamplingError('bad_model', `${where}: objective "${String(objective)}" is not one of ${GENERATION_OBJECTIVES.join(', ')}`);
    let tokenizer = options.tokenizer;
    if (!tokenizer) {
      if (ck.tokenizerJson === undefined) throw new SamplingError('bad_model', `${dir}: no tokenizer.json; the generator needs the tokenizer the model was trained with`);
      tokenizer = Tokenizer.fromJson(JSON.parse(ck.tokenizerJson), join(dir, 'tokenizer.json'));
    }
    const blockLength = sdar?.blockLength ?? gc?.['block_length'];
    if (blockLength !== undefined && !(Number.isInteger(blockLength) && (blockLength as number) >= 1))
      throw new SamplingError('bad_model', `${where}: block_length must be an integer ≥ 1, got ${JSON.stringify(blockLength)}`);
    const maskId = sdar?.maskId ?? gc?.['mask_token_id'];
    if (maskId !== undefined && !Number.isInteger(maskId)) throw new SamplingError('bad_model', `${where}: mask_token_id must be an integer, got ${JSON.stringify(maskId)}`);
    const tokenShift = gc?.['token_shift'];
    if (tokenShift !== undefined && typeof tokenShift !== 'boolean') throw new SamplingError('bad_model', `${where}: token_shift must be true or false, got ${JSON.stringify(tokenShift)}`);
    return ChatGenerator.create(
      {
        objective,
        config,
        weights: weightArrays(ck.weights),
        tokenizer,
        ...(blockLength !== undefined ? { blockLength: blockLength as number } : {}),
        ...(maskId !== undefined ? { maskId: maskId as number } : {}),
        stopIds: stopIdsOf(gc, where),
        ...(tokenShift === true ? { tokenShift } : {}),
        ...(sdar ? { decoding: { denoisingSteps: sdar.denoisingSteps, threshold: sdar.threshold, unmasking: sdar.unmasking } } : {}),
        source: dir,
      },
      options,
    );
  }

  /**
   * Frees the model's resident decoder (its sessions and, on CUDA, the GPU memory their arenas
   * hold); the generator cannot generate afterwards. A pipeline that loads a world model per stage
   * releases it at the stage's end. Host decoders share the process's cached sessions: nothing to free.
   */
  async release(): Promise<void> {
    if (this.backend.kind !== 'mdlm') await this.backend.model.release?.();
  }

  /** A generator on parts already in memory (the trainer's weights, a test model). */
  static async create(parts: GeneratorParts, options: Omit<GeneratorLoadOptions, 'objective' | 'tokenizer'> = {}): Promise<ChatGenerator> {
    const where = parts.source ?? 'generator';
    const tok = parts.tokenizer;
    if (tok.vocabSize > parts.config.vocabSize) throw new SamplingError('bad_model', `${where}: the tokenizer has ${tok.vocabSize} tokens, the model only ${parts.config.vocabSize}`);
    const stops = new Set(parts.stopIds ?? []);
    for (const t of ['<|im_end|>', '<|endoftext|>']) {
      const id = tok.tokenToId(t);
      if (id !== undefined) stops.add(id);
    }
    if (stops.size === 0) throw new SamplingError('bad_model', `${where}: no stop id (no eos_token_id, and the vocabulary has neither <|im_end|> nor <|endoftext|>)`);
    const dec = {
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.dtype ? { dtype: options.dtype } : {}),
      ...(options.intraOpThreads ? { intraOpThreads: options.intraOpThreads } : {}),
      ...(options.spinning !== undefined ? { spinning: options.spinning } : {}),
      ...(options.cudaGraph ? { cudaGraph: true } : {}),
    };
    const cached = { ...dec, ...(options.decoder ? { decoder: options.decoder } : {}), cache: options.cache ?? 'kv' };
    const maskId = parts.maskId ?? tok.maskId;
    let backend: Backend;
    if (parts.objective === 'ar') {
      backend = { kind: 'ar', model: await OnnxCausalModel.create(parts.config, parts.weights, cached) };
    } else {
      if (maskId === undefined) throw new SamplingError('bad_model', `${where}: objective ${parts.objective} needs a mask id (generation_config mask_token_id or a mask token in the tokenizer)`);
      if (stops.has(maskId)) throw new SamplingError('bad_model', `${where}: the mask id ${maskId} is also a stop id`);
      backend =
        parts.objective === 'bd3'
          ? { kind: 'bd3', model: await OnnxBlockDiffusionModel.create(parts.config, parts.weights, parts.blockLength ?? 4, cached), maskId }
          : { kind: 'mdlm', model: await OnnxBidirectionalModel.create(parts.config, parts.weights, dec), maskId };
    }
    return new ChatGenerator(
      backend,
      parts,
      [...stops].sort((a, b) => a - b),
    );
  }

  /**
   * The prompt ids of a conversation: the chat template with the assistant header appended; for
   * bd3, earlier answers padded with EOS to block boundaries as wm train lays out its rows.
   */
  promptIds(messages: readonly ChatMessage[]): number[] {
    return promptIds(this.tokenizer, messages, { objective: this.objective, ...(this.blockLength !== undefined ? { blockLength: this.blockLength } : {}) });
  }

  /** One completion per request, in request order. Requests are batched by prompt length. */
  async generate(requests: readonly ChatRequest[], options: GenerateOptions = {}): Promise<Generation[]> {
    const maxNew = this.maxNewTokens(options.maxNewTokens, 'generate');
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    if (!(Number.isInteger(batchSize) && batchSize >= 1)) throw badOption('generate', `batchSize must be an integer ≥ 1, got ${batchSize}`);
    const maxPrompt = this.maxPromptTokens(options.maxPromptTokens, maxNew, 'generate');
    if (options.unmasking !== undefined && !UNMASKING_STRATEGIES.includes(options.unmasking))
      throw badOption('generate', `unknown unmasking strategy "${options.unmasking}" (known: ${UNMASKING_STRATEGIES.join(', ')})`);
    const defaultSeed = options.seed ?? 0;

    const prepared = requests.map((r, i) => ({ index: i, req: this.prepare(r, `generate: request ${i}`, maxNew, defaultSeed) }));
    const out: Generation[] = new Array(requests.length);
    const runnable = prepared.filter((p) => {
      if (p.req.prompt.length <= maxPrompt) return true;
      out[p.index] = overlong(p.req.prompt.length);
      return false;
    });
    // Similar lengths share a batch (less padding); stable, so equal lengths keep request order.
    // A batch is split further when a few far longer prompts would make every row attend over
    // their length at every step (splitByLength weighs that against one more run per step).
    runnable.sort((a, b) => a.req.prompt.length - b.req.prompt.length);
    const stepCost =
      this.objective === 'mdlm' ? (rows: number, longest: number) => prefillPassCost(rows, longest + maxNew) : (rows: number, longest: number) => decodeStepCost(rows, longest + maxNew / 2);
    const chunks: (typeof runnable)[] = [];
    for (let at = 0; at < runnable.length; at += batchSize) {
      const batch = runnable.slice(at, at + batchSize);
      for (const group of splitByLength(
        batch.map((c) => c.req.prompt.length),
        stepCost,
      ))
        chunks.push(group.map((k) => batch[k]!));
    }
    let done = requests.length - runnable.length;
    for (const chunk of chunks) {
      const results = await this.sample(
        chunk.map((c) => c.req),
        options,
        maxNew,
      );
      chunk.forEach((c, k) => (out[c.index] = this.generation(c.req, results[k]!)));
      done += chunk.length;
      options.onBatch?.(done, requests.length);
    }
    return out;
  }

  /**
   * Continuous decoding of an ar checkpoint: requests submitted one by one take a free one of
   * `rows` rows at the next step and leave it at the step they end (ContinuousAutoregressive), each
   * with its own length and sampling. A request's text equals generate()'s for the same request,
   * seed and options. Diffusion objectives decode whole batches (generate).
   */
  async openSession(options: ChatSessionOptions = {}): Promise<ChatSession> {
    const b = this.backend;
    if (b.kind !== 'ar') throw badOption('openSession', `continuous decoding is for ar checkpoints; this ${this.objective} model decodes in batches (generate)`);
    const maxNew = this.maxNewTokens(options.maxNewTokens, 'openSession');
    const base = this.arOptions(options, maxNew, options.stopIds);
    const rows = options.rows ?? DEFAULT_BATCH;
    const cont = await ContinuousAutoregressive.open(b.model, base, rows, options.admitAtLeast !== undefined ? { admitAtLeast: options.admitAtLeast } : {});
    const defaultSeed = options.seed ?? 0;
    return {
      submit: async (request, own = {}) => {
        const { signal, maxPromptTokens, ...rowOptions } = own;
        const n = this.maxNewTokens(rowOptions.maxNewTokens ?? maxNew, 'session request');
        const req = this.prepare(request, 'session: the request', n, defaultSeed);
        if (req.prompt.length > this.maxPromptTokens(maxPromptTokens, n, 'session request')) return overlong(req.prompt.length);
        return this.generation(req, await cont.submit(req, { ...rowOptions, ...(signal ? { signal } : {}) }));
      },
      get load() {
        return cont.load;
      },
      get stats() {
        return { steps: cont.steps, rowSteps: cont.rowSteps, peakRows: cont.peakRows, cancelledRows: cont.cancelledRows };
      },
      close: () => cont.close(),
    };
  }

  private maxNewTokens(asked: number | undefined, where: string): number {
    const maxNew = asked ?? Math.max(1, Math.min(DEFAULT_MAX_NEW_TOKENS, Math.floor(this.config.maxPositions / 2)));
    if (!(Number.isInteger(maxNew) && maxNew >= 1)) throw badOption(where, `maxNewTokens must be an integer ≥ 1, got ${maxNew}`);
    return maxNew;
  }

  private maxPromptTokens(asked: number | undefined, maxNew: number, where: string): number {
    const maxPrompt = asked ?? this.config.maxPositions - maxNew;
    if (!(Number.isInteger(maxPrompt) && maxPrompt >= 1)) {
      throw badOption(where, `maxPromptTokens must be an integer ≥ 1, got ${maxPrompt} (max_position_embeddings ${this.config.maxPositions} − maxNewTokens ${maxNew}); lower maxNewTokens`);
    }
    return maxPrompt;
  }

  /** A chat request as the samplers' request: prompt ids, seed, anchors as token spans, forced prefix; checked against the objective. */
  private prepare(r: ChatRequest, what: string, maxNew: number, defaultSeed: number): AutoregressiveRequest {
    if (!Array.isArray(r.messages) || r.messages.length === 0) throw new SamplingError('bad_input', `${what} has no messages`);
    const prompt = this.promptIds(r.messages);
    const anchors = (r.anchors ?? []).map((a): Anchor => (isTextAnchor(a) ? { at: a.at, tokens: this.tokenizer.encodeIds(a.text, { addSpecialTokens: false }) } : a));
    if (anchors.length && this.objective === 'ar') throw new SamplingError('bad_input', `${what} has anchors, which an ar model cannot honour (left-to-right decoding cannot see a later span)`);
    if (r.forcedPrefix !== undefined) {
      if (this.objective !== 'ar')
        throw new SamplingError('bad_input', `${what} has a forcedPrefix, which is for ar models; a ${this.objective} model takes the same tokens as an anchor at 0 ({ at: 0, tokens })`);
      if (r.forcedPrefix.length > maxNew) throw new SamplingError('bad_input', `${what} has a forcedPrefix of ${r.forcedPrefix.length} tokens, more than maxNewTokens ${maxNew}`);
    }
    return {
      prompt,
      seed: r.seed ?? defaultSeed,
      ...(anchors.length ? { anchors } : {}),
      ...(r.forcedPrefix?.length ? { forcedPrefix: r.forcedPrefix } : {}),
    };
  }

  private generation(req: AutoregressiveRequest, r: SampleResult): Generation {
    return {
      text: this.tokenizer.decode(r.tokens, { skipSpecialTokens: false }),
      tokenIds: r.tokens,
      finishReason: r.finish,
      stats: { promptTokens: req.prompt.length, generatedTokens: r.tokens.length, ...r.stats },
    };
  }

  /** The ar sampler's options: token sampling (greedy by default), the checkpoint's stop ids and extra ones, the mask id banned. */
  private arOptions(o: Partial<TokenSampling>, maxNewTokens: number, extraStops: readonly number[] | undefined): AutoregressiveOptions {
    return { ...tokenSampling(o), maxNewTokens, stopIds: [...this.stopIds, ...(extraStops ?? [])], ...(this.maskId !== undefined ? { bannedIds: [this.maskId] } : {}) };
  }

  private sample(reqs: AutoregressiveRequest[], o: GenerateOptions, maxNewTokens: number): Promise<SampleResult[]> {
    const sampling = tokenSampling(o);
    const stopIds = [...this.stopIds, ...(o.stopIds ?? [])];
    const b = this.backend;
    switch (b.kind) {
      case 'bd3':
        return sampleBlockDiffusion(b.model, reqs, {
          ...sampling,
          maskId: b.maskId,
          maxNewTokens,
          stopIds,
          ...(this.tokenShift ? { tokenShift: true } : {}),
          unmasking: o.unmasking ?? this.decoding.unmasking ?? 'low_confidence_dynamic',
          threshold: o.threshold ?? this.decoding.threshold ?? 0.85,
          ...((o.denoisingSteps ?? this.decoding.denoisingSteps) !== undefined ? { denoisingSteps: (o.denoisingSteps ?? this.decoding.denoisingSteps)! } : {}),
        });
      case 'ar':
        return sampleAutoregressive(b.model, reqs, this.arOptions(o, maxNewTokens, o.stopIds));
      case 'mdlm':
        return sampleLlada(b.model, reqs, {
          ...sampling,
          maskId: b.maskId,
          genLength: maxNewTokens,
          stopIds,
          ...(o.denoisingSteps !== undefined ? { steps: o.denoisingSteps } : {}),
          ...(o.blockLength !== undefined ? { blockLength: o.blockLength } : {}),
        });
    }
  }
}

/** Token sampling as given, greedy (temperature 0) unless a temperature is. */
function tokenSampling(o: Partial<TokenSampling>): TokenSampling {
  return {
    temperature: o.temperature ?? 0,
    ...(o.topK !== undefined ? { topK: o.topK } : {}),
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    ...(o.repetitionPenalty !== undefined ? { repetitionPenalty: o.repetitionPenalty } : {}),
  };
}

function overlong(promptTokens: number): Generation {
  return { text: '', tokenIds: [], finishReason: 'overlong', stats: { promptTokens, generatedTokens: 0, forwards: 0, tokensPerForward: 0, ms: 0 } };
}
