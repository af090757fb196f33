// The backend of a trained checkpoint: mdlm-core's ChatGenerator (chat template, ONNX model, the
// objective's sampler). One server batch is one generate() call; a request's text depends only on
// the request and its seed, so batching changes speed, never answers. An ar checkpoint also decodes
// continuously (openContinuous: a ChatGenerator session), one request at a time on a shared set of
// rows, with the same texts.
import { basename, dirname, resolve } from 'node:path';
import { HttpError } from '@diffworld/env-core';
import { ChatGenerator, SamplingError, type ChatRequest, type GenerateOptions, type Generation, type GeneratorLoadOptions } from '@diffworld/mdlm-core';
import type { BackendRequest, BackendResult, ContinuousGeneration, GenerationBackend, GenerationParams } from './backend.js';
import { FieldError } from './validate.js';

export interface GeneratorBackendOptions {
  /** The id /v1/models serves (default: the checkpoint directory's name, or its run's for a `model/` dir). */
  modelId?: string;
  /**
   * Most rows per sampler call inside one server batch (default: the whole batch). The generator
   * sorts a batch by prompt length first, so smaller calls pad less.
   */
  samplerBatch?: number;
  /**
   * Continuous batching: while rows decode, waiting requests join once this many rows are free
   * (default a quarter of the rows): each joining group costs a prefill pass of its own, so under
   * load groups are cheaper than one request per step (in process on the 2-core CPU, 512 requests
   * of ≤ 16 tokens through 32 rows: 134 passes instead of 167, wall time within the machine's noise).
   */
  admitAtLeast?: number;
}

export class GeneratorBackend implements GenerationBackend {
  readonly modelId: string;
  readonly maxTokensLimit: number;
  /** Continuous decoding: ar checkpoints only (a diffusion step is not one token per row). */
  readonly openContinuous?: (rows: number) => Promise<ContinuousGeneration>;

  constructor(
    readonly generator: ChatGenerator,
    opts: GeneratorBackendOptions = {},
  ) {
    this.modelId = opts.modelId ?? defaultModelId(generator.source);
    this.maxTokensLimit = Math.max(1, generator.config.maxPositions - 1);
    this.samplerBatch = opts.samplerBatch;
    this.admitAtLeast = opts.admitAtLeast;
    if (this.samplerBatch !== undefined && !(Number.isInteger(this.samplerBatch) && this.samplerBatch >= 1)) throw new RangeError(`samplerBatch must be an integer ≥ 1, got ${this.samplerBatch}`);
    if (generator.objective === 'ar') this.openContinuous = (rows) => this.continuous(rows);
  }

  private readonly samplerBatch: number | undefined;
  private readonly admitAtLeast: number | undefined;

  /**
   * Loads a checkpoint for serving. ONNX Runtime's intra-op spinning is off unless asked for: a
   * server idles between batches and shares its CPU with the HTTP side (and, on a shared machine,
   * with others), and spinning threads took those cycles — at load averages of 16–20 on 2 cores the
   * load bench served 3× more requests per CPU second without it.
   */
  static async load(dir: string, opts: GeneratorBackendOptions & GeneratorLoadOptions = {}): Promise<GeneratorBackend> {
    return new GeneratorBackend(await ChatGenerator.load(dir, { spinning: false, ...opts }), opts);
  }

  validate(request: BackendRequest, params: GenerationParams): void {
    const g = this.generator;
    if (g.objective === 'bd3' && params.blockLength !== undefined && params.blockLength !== g.blockLength) {
      throw new FieldError('block_length', `must be ${g.blockLength} for this bd3 model (its trained block length), got ${params.blockLength}`);
    }
    if (!request.anchors?.length) return;
    if (g.objective === 'ar') throw new FieldError('anchors', 'cannot be honoured by an autoregressive model (it cannot see a later span)');
    const taken = new Set<number>();
    request.anchors.forEach((a, i) => {
      const ids = a.tokens ?? g.tokenizer.encodeIds(a.text ?? '', { addSpecialTokens: false });
      const field = `anchors[${i}].${a.tokens ? 'tokens' : 'text'}`;
      if (ids.length === 0) throw new FieldError(field, 'encodes to no tokens');
      if (a.at + ids.length > params.maxTokens) throw new FieldError(field, `is ${ids.length} tokens at ${a.at}, past max_tokens (${params.maxTokens})`);
      ids.forEach((t, j) => {
        if (t >= g.config.vocabSize || t === g.maskId) throw new FieldError(field, `token ${t} is not a token this model may be given`);
        if (taken.has(a.at + j)) throw new FieldError(field, `overlaps another anchor at generated position ${a.at + j}`);
        taken.add(a.at + j);
      });
    });
  }

  async generate(requests: readonly BackendRequest[], params: GenerationParams): Promise<BackendResult[]> {
    const chats: ChatRequest[] = requests.map((r) => ({
      messages: r.messages,
      seed: r.seed,
      ...(r.anchors?.length ? { anchors: r.anchors.map((a) => (a.tokens ? { at: a.at, tokens: a.tokens } : { at: a.at, text: a.text ?? '' })) } : {}),
    }));
    let out;
    try {
      out = await this.generator.generate(chats, generateOptions(params, this.generator.objective, Math.min(requests.length, this.samplerBatch ?? requests.length)));
    } catch (e) {
      throw clientFault(e);
    }
    return out.map((g) => this.result(g, params));
  }

  private async continuous(rows: number): Promise<ContinuousGeneration> {
    const session = await this.generator.openSession({ rows, admitAtLeast: Math.min(rows, this.admitAtLeast ?? Math.ceil(rows / 4)) });
    return {
      submit: async (r, p, signal) => {
        let g: Generation;
        try {
          g = await session.submit(
            { messages: r.messages, seed: r.seed },
            { maxNewTokens: p.maxTokens, temperature: p.temperature, topP: p.topP, topK: p.topK, repetitionPenalty: p.repetitionPenalty, ...(signal ? { signal } : {}) },
          );
        } catch (e) {
          throw clientFault(e);
        }
        return this.result(g, p);
      },
      get load() {
        return session.load;
      },
      get steps() {
        return session.stats;
      },
      close: () => session.close(),
    };
  }

  private result(g: Generation, params: GenerationParams): BackendResult {
    return {
      text: g.text,
      finishReason: g.finishReason === 'stop' ? 'stop' : 'length',
      promptTokens: g.stats.promptTokens,
      completionTokens: g.stats.generatedTokens,
      ...(g.finishReason === 'overlong'
        ? {
            rejected: {
              field: 'messages',
              message: `make a prompt of ${g.stats.promptTokens} tokens; with max_tokens ${params.maxTokens} this model (${this.generator.config.maxPositions} positions) takes at most ${this.generator.config.maxPositions - params.maxTokens}`,
            },
          }
        : {}),
    };
  }
}

/** The caller's mistake (an option or input the sampler refuses) is a 400, not a server fault. */
function clientFault(e: unknown): unknown {
  return e instanceof SamplingError && (e.code === 'bad_input' || e.code === 'bad_option') ? new HttpError(400, e.message) : e;
}

/** The server's batch options as ChatGenerator options (the whole batch in one sampler call). */
export function generateOptions(p: GenerationParams, objective: ChatGenerator['objective'], batchSize: number): GenerateOptions {
  return {
    maxNewTokens: p.maxTokens,
    temperature: p.temperature,
    topP: p.topP,
    topK: p.topK,
    repetitionPenalty: p.repetitionPenalty,
    batchSize: Math.max(1, batchSize),
    ...(p.strategy !== undefined ? { unmasking: p.strategy } : {}),
    ...(p.threshold !== undefined ? { threshold: p.threshold } : {}),
    ...(p.denoisingSteps !== undefined ? { denoisingSteps: p.denoisingSteps } : {}),
    // bd3 decodes with its trained block length (checked in validate); mdlm takes one per call.
    ...(objective === 'mdlm' && p.blockLength !== undefined ? { blockLength: p.blockLength } : {}),
  };
}

function defaultModelId(source: string): string {
  const dir = resolve(source);
  const name = basename(dir);
  return name === 'model' ? basename(dirname(dir)) || name : name;
}
