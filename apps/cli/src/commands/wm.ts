// `diffworld wm train` (issue 11): train a masked-diffusion (mdlm | bd3) or autoregressive world
// model on chat rows, from scratch or from a Hugging Face checkpoint, into a resumable run directory.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@diffworld/dataset';
import {
  type TrainConfig,
  TrainError,
  resolveTrainConfig,
  trainWorldModel,
  ConfigError,
  CheckpointError,
  type ProviderName,
  PROVIDERS,
  ExportError,
  exportOnnxModel,
  loadCheckpoint,
  parseHfConfig,
  TOKENIZER_FILE,
} from '@diffworld/mdlm-core';
import { Tokenizer } from '@diffworld/tokenizer';
import { HUB_MODEL_HELP, resolveModelArg } from '../model-arg.js';
import { EXIT, UsageError, requiredString, stringOpt, type Command, type ParsedArgs } from '../command.js';

/** Command-line flags that override the config file, and the config keys they set. */
const OVERRIDES: readonly { flag: string; key: keyof TrainConfig; kind: 'int' | 'number' | 'string' }[] = [
  { flag: 'objective', key: 'objective', kind: 'string' },
  { flag: 'steps', key: 'steps', kind: 'int' },
  { flag: 'batch-size', key: 'batchSize', kind: 'int' },
  { flag: 'grad-accum', key: 'gradAccum', kind: 'int' },
  { flag: 'seq-length', key: 'seqLength', kind: 'int' },
  { flag: 'block-length', key: 'blockLength', kind: 'int' },
  { flag: 'token-shift', key: 'tokenShift', kind: 'string' },
  { flag: 'lr', key: 'lr', kind: 'number' },
  { flag: 'schedule', key: 'schedule', kind: 'string' },
  { flag: 'seed', key: 'seed', kind: 'int' },
  { flag: 'eval-every', key: 'evalEvery', kind: 'int' },
  { flag: 'save-every', key: 'saveEvery', kind: 'int' },
  { flag: 'keep-last', key: 'keepLast', kind: 'int' },
  { flag: 'log-every', key: 'logEvery', kind: 'int' },
  { flag: 'save-dtype', key: 'saveDtype', kind: 'string' },
];

function overrides(args: ParsedArgs): Partial<TrainConfig> {
  const out: Record<string, unknown> = {};
  for (const o of OVERRIDES) {
    const v = stringOpt(args, o.flag);
    if (v === undefined) continue;
    if (o.kind === 'string') out[o.key] = v;
    else {
      const n = Number(v);
      if (!Number.isFinite(n) || (o.kind === 'int' && !Number.isInteger(n))) throw new UsageError(`--${o.flag} must be ${o.kind === 'int' ? 'an integer' : 'a number'}, got "${v}"`);
      out[o.key] = n;
    }
  }
  return out as Partial<TrainConfig>;
}

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`${what} ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${what} ${path}: not valid JSON (${(e as Error).message})`);
  }
}

const train: Command = {
  path: ['wm', 'train'],
  summary: 'train an MDLM / block-diffusion (SDAR) / AR world model on chat rows; resumable',
  help: [
    'Usage: diffworld wm train --data FILE [--data FILE …] --tokenizer tokenizer.json --out DIR',
    '                          [--objective bd3|mdlm|ar] [--config train.json] [--init DIR|HUB_ID] [--resume]',
    '',
    'Trains a world model p(observation | grounded prompt, history, action) on chat rows (.jsonl or',
    '.parquet, {"messages": [...]}): every assistant message is a target (a transition row has one, an',
    'episode row from `env corpus --layout episode` one per observation), the rest is the clean prompt.',
    'Objectives: bd3 = SDAR-style block diffusion (the [x_t ; x_0] layout, block length 4; each target',
    'span noised with its own mask ratio and padded with EOS to a block boundary), mdlm = plain masked',
    'diffusion, ar = next-token baseline of the same architecture. Examples are packed into rows of',
    '--seq-length tokens; an episode row over it is trained on the window of its latest steps that fits',
    '(system prompt and first turn kept, as the world model windows its prompts); other longer rows are',
    "dropped and counted, never cut. The rows' layout is recorded in generation_config.json",
    '(world_model_layout), and eval/pipeline world models build their prompts in it.',
    '',
    'The run directory holds train_config.json, metrics.jsonl (loss, grad norm, lr, eval loss, tok/s),',
    'checkpoint-NNNNNN/ every --save-every steps (the last --keep-last kept; Hugging Face layout plus',
    'optimizer.safetensors and trainer_state.json) and model/ at the end. --resume continues from the',
    'last complete checkpoint and reaches the same weights as an uninterrupted run.',
    '',
    'Options:',
    '  --data FILE         training rows (repeatable)',
    '  --eval-data FILE    held-out rows (repeatable; default: a seeded share of --data, evalFraction)',
    '  --tokenizer PATH    tokenizer.json (needs <|mask|> for diffusion objectives); default with --init:',
    "                      the checkpoint's own tokenizer.json",
    '  --out DIR           run directory',
    '  --config PATH       JSON settings (keys: objective, model, seed, seqLength, blockLength, batchSize,',
    '                      gradAccum, steps, lr, schedule, warmupRatio, minLrRatio, weightDecay, clipNorm,',
    '                      evalEvery, evalBatches, evalFraction, saveEvery, keepLast, logEvery, saveDtype,',
    '                      skipBadRows);',
    '                      "model" is a Hugging Face config.json object (LLaMA, Mistral, Qwen2, Qwen3)',
    '  --init DIR|HUB_ID   start from a Hugging Face checkpoint directory, or a Hub model org/name[@revision],',
    '                      instead of random weights',
    '  --skip-bad          skip malformed rows, each listed on stderr as FILE:LINE: what is wrong, instead',
    '                      of stopping at the first one (exit 2); config key skipBadRows',
    '  --resume            continue the run in --out',
    '  --auto-resume       continue the run in --out if there is one, else start it (for Nx targets)',
    '  --provider NAME     cuda | webgpu | cpu (default: the first that works, in that order)',
    '  --steps-per-call N  optimizer steps per ONNX Runtime call (a Loop graph; same results). Default',
    '                      auto: 1 (on CUDA the state stays on the GPU through IO binding and CUDA graphs;',
    '                      16, a Loop, where that path is unavailable: see diffworld doctor)',
    "  --io-binding M      auto (default) | on | off: run steps through ORT's C API with the state in",
    '                      session-owned buffers (CUDA: GPU memory and CUDA graphs). auto: on for CUDA',
    '                      with one step per call; on: also on the CPU (same numbers); off: onnxruntime-node',
    '  --cuda-graph M      on (default) | off: with IO binding on CUDA, capture the step as a CUDA graph;',
    '                      off keeps the GPU-resident state for graphs CUDA cannot capture',
    '  --precision P       float32 (default) | bfloat16 | float16: MatMuls in half precision, weights,',
    '                      optimizer and checkpoints float32 (real half GEMMs on CUDA; elsewhere emulated,',
    '                      no speed-up). float16 adds dynamic loss scaling (initial scale 2^16, doubled',
    '                      after 2000 finite steps, halved and the step skipped when gradients overflow)',
    '  --objective, --steps, --batch-size, --grad-accum, --seq-length, --block-length, --lr,',
    '  --schedule constant|constant_with_warmup|cosine, --seed, --eval-every, --save-every,',
    '  --keep-last, --log-every, --save-dtype float32|bfloat16,',
    '  --token-shift auto|on|off (bd3: token i predicted at i−1; auto: on when --init is an AR model)',
    '                                                               override the config file',
    '',
    HUB_MODEL_HELP,
    '',
    'Examples:',
    '  diffworld wm train --init Qwen/Qwen3-0.6B --objective ar --steps 300 --data rows.parquet --out /tmp/wm-qwen3',
    '  diffworld wm train --config apps/cli/configs/train-wm.tiny.json --data test-data/wm/alfworld-train.jsonl \\',
    '    --tokenizer test-data/wm/tokenizer.json --out /tmp/wm-bd3',
    '  diffworld wm train --objective ar --steps 300 --data rows.parquet --tokenizer tok.json --out /tmp/wm-ar',
    '  diffworld wm train --resume --config train.json --data rows.parquet --tokenizer tok.json --out /tmp/wm-ar',
  ].join('\n'),
  options: {
    data: { type: 'string', multiple: true },
    'eval-data': { type: 'string', multiple: true },
    tokenizer: { type: 'string' },
    out: { type: 'string' },
    config: { type: 'string' },
    init: { type: 'string' },
    resume: { type: 'boolean' },
    'skip-bad': { type: 'boolean' },
    'auto-resume': { type: 'boolean' },
    provider: { type: 'string' },
    'steps-per-call': { type: 'string' },
    'io-binding': { type: 'string' },
    'cuda-graph': { type: 'string' },
    precision: { type: 'string' },
    ...Object.fromEntries(OVERRIDES.map((o) => [o.flag, { type: 'string' as const }])),
  },
  async run(args, io) {
    const data = (args.values['data'] as string[] | undefined) ?? [];
    if (data.length === 0) throw new UsageError('--data is required (one or more .jsonl/.parquet files of chat rows)');
    const out = requiredString(args, 'out');
    const provider = stringOpt(args, 'provider');
    if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, got "${provider}"`);
    const perCallOpt = stringOpt(args, 'steps-per-call') ?? 'auto';
    const stepsPerCall = perCallOpt === 'auto' ? 'auto' : Number(perCallOpt);
    if (stepsPerCall !== 'auto' && !(Number.isInteger(stepsPerCall) && stepsPerCall >= 1)) throw new UsageError(`--steps-per-call must be a positive integer or "auto", got "${perCallOpt}"`);
    const ioOpt = stringOpt(args, 'io-binding') ?? 'auto';
    if (ioOpt !== 'auto' && ioOpt !== 'on' && ioOpt !== 'off') throw new UsageError(`--io-binding must be auto, on or off, got "${ioOpt}"`);
    if (ioOpt === 'on' && provider === 'webgpu') throw new UsageError('--io-binding on runs on the cuda or cpu provider, not webgpu');
    const graphOpt = stringOpt(args, 'cuda-graph') ?? 'on';
    if (graphOpt !== 'on' && graphOpt !== 'off') throw new UsageError(`--cuda-graph must be on or off, got "${graphOpt}"`);
    const precision = stringOpt(args, 'precision') ?? 'float32';
    if (precision !== 'float32' && precision !== 'bfloat16' && precision !== 'float16') throw new UsageError(`--precision must be float32, bfloat16 or float16, got "${precision}"`);
    const configPath = stringOpt(args, 'config');
    // A bad setting is a ConfigError naming its key path (exit 2).
    const flags = { ...overrides(args), ...(args.values['skip-bad'] === true ? { skipBadRows: true } : {}) };
    const config: TrainConfig = resolveTrainConfig(configPath ? readJson(configPath, '--config') : undefined, flags, configPath ?? 'train config');
    const initSpec = stringOpt(args, 'init');
    const init = initSpec === undefined ? undefined : (await resolveModelArg(initSpec, '--init', io)).dir;
    // A pretrained model brings its tokenizer; --tokenizer replaces it (or is needed from scratch).
    const tokPath = stringOpt(args, 'tokenizer') ?? (init !== undefined && existsSync(join(init, TOKENIZER_FILE)) ? join(init, TOKENIZER_FILE) : undefined);
    if (tokPath === undefined) throw new UsageError(init === undefined ? '--tokenizer is required when training from scratch' : `--tokenizer is required: --init ${initSpec} has no ${TOKENIZER_FILE}`);
    const tokenizerJson = readFileSync(tokPath, 'utf8');
    const tokenizer = Tokenizer.fromJson(readJson(tokPath, '--tokenizer'), tokPath);
    try {
      const s = await trainWorldModel({
        config,
        data,
        evalData: (args.values['eval-data'] as string[] | undefined) ?? [],
        tokenizer,
        tokenizerJson,
        out,
        ...(init ? { init } : {}),
        resume: args.values['resume'] === true ? true : args.values['auto-resume'] === true ? 'auto' : false,
        ...(provider ? { provider: provider as ProviderName } : {}),
        stepsPerCall,
        ...(ioOpt === 'auto' ? {} : { ioBinding: ioOpt === 'on' }),
        ...(graphOpt === 'off' ? { cudaGraph: false } : {}),
        precision,
        log: (line) => io.err(line),
      });
      io.out(
        `${s.modelDir}: ${config.objective} world model after ${s.steps} steps — loss ${s.finalLoss.toFixed(4)}${s.evalLoss !== undefined ? `, eval loss ${s.evalLoss.toFixed(4)}` : ''}; ${s.examples.train} train / ${s.examples.eval} eval examples (${s.examples.dropped.too_long} too long, ${s.examples.dropped.no_target} without a target dropped${s.examples.skippedRows.length ? `, ${s.examples.skippedRows.length} malformed row(s) skipped` : ''})${s.examples.windowed ? `, ${s.examples.windowed} long episode(s) windowed` : ''}${s.layout ? `, ${s.layout} layout` : ''}; ${Math.round(s.tokensPerSecond)} tok/s on ${s.provider}`,
      );
      return EXIT.ok;
    } catch (e) {
      if (e instanceof TrainError || e instanceof ConfigError || e instanceof CheckpointError) throw new UsageError(e.message);
      throw e;
    }
  },
};

const exportCmd: Command = {
  path: ['wm', 'export'],
  summary: 'export a checkpoint to one standalone ONNX inference file (logits; optionally with a KV cache)',
  help: [
    'Usage: diffworld wm export --model DIR|HUB_ID --out model.onnx [--kv-cache] [--max-positions N]',
    '',
    'Writes the model of a Hugging Face checkpoint directory (ours or one saved by transformers) as one',
    'ONNX file that runs on any ONNX runtime without DiffWorld: weights are initializers, RoPE tables',
    'a constant. Inputs: input_ids and position_ids [batch, seq] int64, attention_bias',
    '[batch, 1, seq, past+seq] float32 (additive: 0 attends, -1e9 blocks; causal for AR, block-causal',
    'for SDAR, full for MDLM). Output: logits [batch, seq, vocab]. With --kv-cache also past.<i>.key /',
    'past.<i>.value inputs [batch, kv_heads, past, head_dim] and present.<i>.* outputs (past ++ new).',
    'Float32 weights; one file holds at most 2 GiB.',
    '',
    'Options:',
    '  --model DIR|HUB_ID   checkpoint directory (config.json + model.safetensors or shards), or a Hub model',
    '  --out PATH           the .onnx file to write (atomically)',
    '  --kv-cache           add the key/value cache inputs and outputs',
    '  --max-positions N    rows of the baked RoPE table (default: max_position_embeddings)',
    '',
    'Example:',
    '  diffworld wm export --model /tmp/wm-bd3/model --out /tmp/wm.onnx --kv-cache',
  ].join('\n'),
  options: { model: { type: 'string' }, out: { type: 'string' }, 'kv-cache': { type: 'boolean' }, 'max-positions': { type: 'string' } },
  async run(args, io) {
    const spec = requiredString(args, 'model');
    const out = requiredString(args, 'out');
    const maxPos = stringOpt(args, 'max-positions');
    if (maxPos !== undefined && !(Number.isInteger(Number(maxPos)) && Number(maxPos) > 0)) throw new UsageError(`--max-positions must be a positive integer, got "${maxPos}"`);
    const dir = (await resolveModelArg(spec, '--model', io)).dir;
    try {
      const ck = await loadCheckpoint(dir, { optimizer: false });
      const config = parseHfConfig(ck.config, `${dir}/config.json`);
      const bytes = exportOnnxModel(config, new Map([...ck.weights].map(([k, w]) => [k, w.data])), { kvCache: args.values['kv-cache'] === true, ...(maxPos ? { maxPositions: Number(maxPos) } : {}) });
      await writeFileAtomic(out, bytes);
      io.out(`${out}: ${config.modelType} ${config.nLayers}×${config.dModel}${args.values['kv-cache'] ? ' with a KV cache' : ''}, ${(bytes.length / 2 ** 20).toFixed(1)} MiB`);
      return EXIT.ok;
    } catch (e) {
      if (e instanceof ExportError || e instanceof ConfigError || e instanceof CheckpointError) throw new UsageError(e.message);
      throw e;
    }
  },
};

export const WM_COMMANDS: readonly Command[] = [train, exportCmd];
