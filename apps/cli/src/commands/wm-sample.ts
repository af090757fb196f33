// `diffworld wm sample` (one prompt, printed) and `diffworld wm generate` (a file of chat rows →
// <name>_outputs.jsonl in the reference row shape, resumable) from a trained checkpoint — or, for
// generate, from any OpenAI-compatible endpoint. The sampling flags and the model loading are
// shared with `eval wm` (eval-wm.ts).
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { ChatMessage } from '@diffworld/dataset';
import { generateOutputs, localCompleter, remoteCompleter, type ChatCompleter } from '@diffworld/eval';
import {
  ChatGenerator,
  CheckpointError,
  ConfigError,
  GENERATION_OBJECTIVES,
  PROVIDERS,
  SamplingError,
  UNMASKING_STRATEGIES,
  checkTokenSampling,
  type GenerateOptions,
  type GenerationObjective,
  type ProviderName,
  type TextAnchor,
  type UnmaskingStrategy,
  isHubModelSpec,
} from '@diffworld/mdlm-core';
import { HUB_MODEL_HELP, resolveModelArg } from '../model-arg.js';
import { EXIT, UsageError, intOpt, numberOpt, positiveIntOpt, requiredString, stringOpt, type Command, type ParsedArgs } from '../command.js';

/** Flags of every command that samples from a model. */
export const SAMPLING_OPTIONS = {
  temperature: { type: 'string' },
  'top-p': { type: 'string' },
  'top-k': { type: 'string' },
  'repetition-penalty': { type: 'string' },
  'max-new-tokens': { type: 'string' },
  strategy: { type: 'string' },
  threshold: { type: 'string' },
  'denoising-steps': { type: 'string' },
  seed: { type: 'string' },
  'batch-size': { type: 'string' },
  provider: { type: 'string' },
  objective: { type: 'string' },
} as const;

/** Flags of commands that also take an OpenAI-compatible URL as --model. */
export const REMOTE_OPTIONS = {
  'model-name': { type: 'string' },
  concurrency: { type: 'string' },
  'timeout-s': { type: 'string' },
} as const;

export const SAMPLING_HELP = `Sampling:
  --temperature T         0 = greedy (default 0 for every objective)
  --top-p P, --top-k K    nucleus / top-k filtering (default off)
  --repetition-penalty R  lmdeploy's penalty on generated tokens (default 1 = off)
  --max-new-tokens N      default 256 (at most half the model's max_position_embeddings); remote 2048
  --strategy S            bd3 unmasking: low_confidence_dynamic (default) | low_confidence_static | sequential
  --threshold T           bd3 dynamic confidence threshold (default 0.85)
  --denoising-steps N     bd3: steps per block (default the block length); mdlm: total steps
  --seed N                row i is sampled with seed N + i (default 0)
  --batch-size N          rows per forward batch (default 8)
  --provider NAME         cuda | webgpu | cpu (default: the first that works)
  --objective O           ar | mdlm | bd3, for checkpoints whose generation_config.json lacks it`;

export const REMOTE_HELP = `With --model URL (an OpenAI-compatible server: wm-server, vLLM, lmdeploy):
  --model-name NAME       the "model" field of each request (default "default")
  --concurrency N         requests in flight (default 8)
  --timeout-s S           per request, retried with backoff on 5xx/429/timeouts (default 120)
  Only --temperature and --max-new-tokens (max_tokens, default 2048 as llm_training/evaluate.py)
  are sent; seeds and the other sampling settings are the server's.`;

/** llm_training/evaluate.py's max_tokens for AR baselines behind an endpoint. */
const REMOTE_MAX_TOKENS = 2048;

export const isUrl = (s: string) => /^https?:\/\//i.test(s);

function floatOpt(args: ParsedArgs, name: string): number | undefined {
  return stringOpt(args, name) === undefined ? undefined : numberOpt(args, name, 0);
}

/** The generate options of the sampling flags, checked here so a typo is exit 2, not a file of ERROR rows. */
export function generateOptions(args: ParsedArgs): GenerateOptions {
  const o: GenerateOptions = { temperature: floatOpt(args, 'temperature') ?? 0, seed: intOpt(args, 'seed', 0), batchSize: positiveIntOpt(args, 'batch-size', 8) };
  if (stringOpt(args, 'max-new-tokens') !== undefined) o.maxNewTokens = positiveIntOpt(args, 'max-new-tokens', 1);
  const topP = floatOpt(args, 'top-p');
  if (topP !== undefined) o.topP = topP;
  if (stringOpt(args, 'top-k') !== undefined) o.topK = intOpt(args, 'top-k', 0);
  const rp = floatOpt(args, 'repetition-penalty');
  if (rp !== undefined) o.repetitionPenalty = rp;
  try {
    checkTokenSampling(
      {
        temperature: o.temperature!,
        ...(o.topP !== undefined ? { topP: o.topP } : {}),
        ...(o.topK !== undefined ? { topK: o.topK } : {}),
        ...(o.repetitionPenalty !== undefined ? { repetitionPenalty: o.repetitionPenalty } : {}),
      },
      'sampling flags',
    );
  } catch (e) {
    throw new UsageError(
      (e as Error).message
        .replace('sampling flags: ', '')
        .replace(/^(temperature|topP|topK|repetitionPenalty)/, (m) => `--${{ temperature: 'temperature', topP: 'top-p', topK: 'top-k', repetitionPenalty: 'repetition-penalty' }[m]}`),
    );
  }
  const strategy = stringOpt(args, 'strategy');
  if (strategy !== undefined) {
    if (!(UNMASKING_STRATEGIES as readonly string[]).includes(strategy)) throw new UsageError(`--strategy must be one of ${UNMASKING_STRATEGIES.join(', ')}, got "${strategy}"`);
    o.unmasking = strategy as UnmaskingStrategy;
  }
  const threshold = floatOpt(args, 'threshold');
  if (threshold !== undefined) {
    if (!(threshold >= 0 && threshold <= 1)) throw new UsageError(`--threshold must be in [0, 1], got ${threshold}`);
    o.threshold = threshold;
  }
  if (stringOpt(args, 'denoising-steps') !== undefined) o.denoisingSteps = positiveIntOpt(args, 'denoising-steps', 1);
  return o;
}

/** Loads a checkpoint directory or Hub model (org/name[@revision]); a bad one is the user's to fix (exit 2). */
export async function loadGenerator(spec: string, args: ParsedArgs, io: { err: (l: string) => void }): Promise<ChatGenerator> {
  if (!existsSync(spec) && !isHubModelSpec(spec))
    throw new UsageError(`--model ${spec}: no such directory (expected a checkpoint directory such as RUN/model, a Hub model id org/name[@revision], or an http(s):// URL)`);
  const dir = (await resolveModelArg(spec, '--model', io)).dir;
  if (!statSync(dir).isDirectory()) throw new UsageError(`--model ${dir}: not a directory (expected a checkpoint directory such as RUN/model)`);
  const provider = stringOpt(args, 'provider');
  if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, got "${provider}"`);
  const objective = stringOpt(args, 'objective');
  if (objective !== undefined && !(GENERATION_OBJECTIVES as readonly string[]).includes(objective))
    throw new UsageError(`--objective must be one of ${GENERATION_OBJECTIVES.join(', ')}, got "${objective}"`);
  try {
    return await ChatGenerator.load(dir, { ...(provider ? { provider: provider as ProviderName } : {}), ...(objective ? { objective: objective as GenerationObjective } : {}) });
  } catch (e) {
    if (e instanceof SamplingError || e instanceof ConfigError || e instanceof CheckpointError) throw new UsageError(`--model ${dir}: ${e.message}`);
    throw e;
  }
}

/** --model DIR (in process) or URL (remote), with the sampling flags applied. */
export async function completerFor(args: ParsedArgs, io: { err: (l: string) => void }): Promise<ChatCompleter> {
  const model = requiredString(args, 'model');
  const options = generateOptions(args);
  if (isUrl(model)) {
    for (const f of ['top-p', 'top-k', 'repetition-penalty', 'strategy', 'threshold', 'denoising-steps', 'provider', 'objective']) {
      if (args.values[f] !== undefined) io.err(`note: --${f} is not sent to a remote model; set it on the server`);
    }
    const concurrency = positiveIntOpt(args, 'concurrency', 8);
    const timeoutS = numberOpt(args, 'timeout-s', 120);
    if (!(timeoutS > 0)) throw new UsageError(`--timeout-s must be positive, got ${timeoutS}`);
    try {
      return remoteCompleter({
        url: model,
        model: stringOpt(args, 'model-name') ?? 'default',
        temperature: options.temperature!,
        maxTokens: options.maxNewTokens ?? REMOTE_MAX_TOKENS,
        concurrency,
        timeoutMs: timeoutS * 1000,
      });
    } catch (e) {
      throw new UsageError(`--model ${model}: ${(e as Error).message}`);
    }
  }
  const generator = await loadGenerator(model, args, io);
  io.err(
    `model ${model}: ${generator.objective}${generator.blockLength ? `, block ${generator.blockLength}` : ''}, ${generator.config.nLayers}×${generator.config.dModel}, stop ids ${generator.stopIds.join(',')}`,
  );
  return localCompleter(generator, options);
}

/** The conversation in a prompt file: JSON messages / a chat row, the first row of a JSONL file, or plain text as one user turn. */
export function readPromptFile(path: string, system: string | undefined): { messages: ChatMessage[]; droppedTarget: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--prompt-file ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const ext = extname(path).toLowerCase();
  let messages: ChatMessage[];
  if (ext === '.json' || ext === '.jsonl') {
    let v: unknown;
    const src = ext === '.jsonl' ? (text.split('\n').find((l) => l.trim() !== '') ?? '') : text;
    try {
      v = JSON.parse(src);
    } catch (e) {
      throw new UsageError(`--prompt-file ${path}: not valid JSON (${(e as Error).message})`);
    }
    const list = Array.isArray(v) ? v : (v as { messages?: unknown } | null)?.messages;
    if (!Array.isArray(list) || list.length === 0 || !list.every((m) => typeof m?.role === 'string' && typeof m?.content === 'string')) {
      throw new UsageError(`--prompt-file ${path}: expected a list of {role, content} messages or a chat row {"messages": [...]}`);
    }
    messages = list as ChatMessage[];
  } else {
    messages = [{ role: 'user', content: text.replace(/\n$/, '') }];
  }
  if (system !== undefined) messages = [{ role: 'system', content: system }, ...messages.filter((m) => m.role !== 'system')];
  const droppedTarget = messages.length > 1 && messages[messages.length - 1]!.role === 'assistant';
  return { messages: droppedTarget ? messages.slice(0, -1) : messages, droppedTarget };
}

/** `--anchor AT:TEXT`: TEXT fixed at generated token AT. */
export function parseAnchor(spec: string): TextAnchor {
  const m = /^(\d+):([\s\S]+)$/.exec(spec);
  if (!m) throw new UsageError(`--anchor must be AT:TEXT (AT = generated token index ≥ 0), got "${spec}"`);
  return { at: Number(m[1]), text: m[2]! };
}

const sample: Command = {
  path: ['wm', 'sample'],
  summary: 'sample a world model checkpoint on one prompt (anchors, strategy, seed, temperature)',
  help: `Usage: diffworld wm sample --model DIR|HUB_ID --prompt-file FILE [options]

Prints the model's answer to one conversation. The prompt file holds JSON messages
([{"role", "content"}, …] or a chat row {"messages": [...]}; .jsonl: its first row) or plain text
(one user turn). A final assistant message is dropped, so a training row works as a prompt. The
chat template appends the assistant header; generation stops at <|im_end|> / <|endoftext|> /
eos_token_id. Stats (tokens, forward passes, time) go to stderr.

Options:
  --model DIR|HUB_ID      checkpoint directory (a run's model/ or checkpoint-N/), or org/name[@revision]
  --prompt-file FILE      the conversation
  --system TEXT           replace the system message
  --anchor AT:TEXT        fix TEXT at generated token AT (repeatable; bd3/mdlm only)
  --samples N             N samples with seeds seed, seed+1, … (default 1)
  --json                  one JSON line per sample: {seed, text, finish_reason, stats}
${SAMPLING_HELP}

${HUB_MODEL_HELP}

Examples:
  diffworld wm sample --model runs/wm-bd3/model --prompt-file row.json
  HF_TOKEN=hf_… diffworld wm sample --model org/world-model@v1 --prompt-file row.json
  diffworld wm sample --model runs/wm-bd3/model --prompt-file row.json --anchor "0:You open" --temperature 1 --samples 3 --seed 7
  diffworld wm sample --model runs/wm-bd3/model --prompt-file q.txt --strategy low_confidence_static --max-new-tokens 64`,
  options: {
    model: { type: 'string' },
    'prompt-file': { type: 'string' },
    system: { type: 'string' },
    anchor: { type: 'string', multiple: true },
    samples: { type: 'string' },
    json: { type: 'boolean' },
    ...SAMPLING_OPTIONS,
  },
  async run(args, io) {
    const dir = requiredString(args, 'model');
    if (isUrl(dir)) throw new UsageError('wm sample runs a checkpoint in this process; for a server use wm generate --model URL, or curl its /v1/chat/completions');
    const { messages, droppedTarget } = readPromptFile(requiredString(args, 'prompt-file'), stringOpt(args, 'system'));
    if (droppedTarget) io.err('note: the prompt file ends with an assistant message; it was dropped (the model writes that turn)');
    const anchors = ((args.values['anchor'] as string[] | undefined) ?? []).map(parseAnchor);
    const n = positiveIntOpt(args, 'samples', 1);
    const options = generateOptions(args);
    const generator = await loadGenerator(dir, args, io);
    if (anchors.length && generator.objective === 'ar') throw new UsageError('--anchor needs a diffusion model (bd3 or mdlm); this checkpoint is ar');
    let results;
    try {
      results = await generator.generate(
        Array.from({ length: n }, (_, k) => ({ messages, seed: options.seed! + k, anchors })),
        options,
      );
    } catch (e) {
      if (e instanceof SamplingError && e.code !== 'bad_model') throw new UsageError(e.message);
      throw e;
    }
    results.forEach((r, k) => {
      const seed = options.seed! + k;
      if (args.values['json'] === true) io.out(JSON.stringify({ seed, text: r.text, finish_reason: r.finishReason, stats: r.stats }));
      else {
        if (n > 1) io.out(`--- sample ${k + 1}/${n} (seed ${seed}) ---`);
        io.out(r.text);
      }
      const s = r.stats;
      io.err(
        `seed ${seed}: ${s.generatedTokens} tokens, ${s.forwards} forwards (${s.tokensPerForward.toFixed(2)} tokens/forward), ${(s.ms / 1000).toFixed(2)} s, finish ${r.finishReason}; prompt ${s.promptTokens} tokens`,
      );
    });
    return EXIT.ok;
  },
};

const generate: Command = {
  path: ['wm', 'generate'],
  summary: "write a world model's outputs for chat rows (<name>_outputs.jsonl, the reference's rows); resumable",
  help: `Usage: diffworld wm generate --model DIR|HUB_ID|URL --data FILE --out DIR [options]

For every chat row of --data (.jsonl or .parquet), the model answers messages[:-1] and the last
message is the reference. Writes OUT/<name>_outputs.jsonl with the rows of the reference
sdar/eval_generate.py: {"index", "config", "prediction_raw", "reference", "generated",
"ground_truth"}. A prompt longer than the model allows gets "SKIPPED_OVERLONG" and
"skipped_overlong": true; a failed batch (or remote request) "ERROR: <Type>: <message>". Rows are
appended batch by batch; run the same command again after a kill and only the missing (and ERROR)
rows are generated, ending with the same file as an uninterrupted run. Score it with eval score.

Options:
  --model DIR|HUB_ID|URL  checkpoint directory, Hub model org/name[@revision], or an OpenAI-compatible base URL
  --data FILE             chat rows; the last message of each is the reference
  --out DIR               output directory
  --name NAME             file prefix and "config" of rows without "dataset" (default: the data file name)
  --limit N               only the first N rows
${SAMPLING_HELP}
${REMOTE_HELP}

${HUB_MODEL_HELP}

Examples:
  diffworld wm generate --model runs/wm-bd3/model --data test-data/wm/alfworld-eval.jsonl --out results/bd3
  diffworld wm generate --model http://127.0.0.1:8000 --data eval.parquet --out results/server --name alfworld
  diffworld eval score --pred results/bd3/alfworld-eval_outputs.jsonl`,
  options: {
    model: { type: 'string' },
    data: { type: 'string' },
    out: { type: 'string' },
    name: { type: 'string' },
    limit: { type: 'string' },
    ...SAMPLING_OPTIONS,
    ...REMOTE_OPTIONS,
  },
  async run(args, io) {
    const data = requiredString(args, 'data');
    const outDir = requiredString(args, 'out');
    if (!existsSync(data)) throw new UsageError(`--data ${data}: no such file`);
    const name = stringOpt(args, 'name') ?? dataName(data);
    const limit = stringOpt(args, 'limit') === undefined ? undefined : positiveIntOpt(args, 'limit', 1);
    const options = generateOptions(args);
    const completer = await completerFor(args, io);
    mkdirSync(outDir, { recursive: true });
    const r = await generateOutputs({
      completer,
      data,
      out: join(outDir, `${name}_outputs.jsonl`),
      name,
      batchSize: options.batchSize!,
      seed: options.seed!,
      ...(limit !== undefined ? { limit } : {}),
      log: (l) => io.err(l),
    });
    io.out(
      `${r.path}: ${r.rows} rows (${r.resumed} resumed, ${r.generated} generated${r.errors ? `, ${r.errors} ERROR` : ''}${r.overlong ? `, ${r.overlong} overlong` : ''}) in ${r.seconds.toFixed(1)} s, ${r.rowsPerSecond.toFixed(2)} rows/s${r.tokens !== undefined && r.tokens > 0 ? `, ${(r.tokens / r.seconds).toFixed(0)} tokens/s, ${(r.forwards! / r.tokens).toFixed(3)} forwards/token` : ''}`,
    );
    return r.errors ? EXIT.failure : EXIT.ok;
  },
};

/** The data file name without directory and extension. */
export const dataName = (path: string) => basename(path).replace(/\.(jsonl|ndjson|parquet)$/i, '');

export const WM_SAMPLE_COMMANDS: readonly Command[] = [sample, generate];
