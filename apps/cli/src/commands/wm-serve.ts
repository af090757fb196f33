// `diffworld wm serve` (issue 14): serve a trained world model over OpenAI chat completions and the
// paper's proxy route, with continuous (AR) or dynamic batching, limits and Prometheus metrics (apps/wm-server).
import { PROVIDERS, type ProviderName } from '@diffworld/mdlm-core';
import { GeneratorBackend, SCHEDULING_MODES, startWmServer, type RunningWmServer, type SchedulingMode } from '@diffworld/wm-server';
import { HUB_MODEL_HELP, resolveModelArg } from '../model-arg.js';
import { EXIT, UsageError, intOpt, positiveIntOpt, requiredString, stringOpt, type Command, type CommandIO, type ParsedArgs } from '../command.js';

const DEFAULT_PORT = 30000;

/** Loads the model and starts the server the arguments describe (the command waits for a signal). */
export async function startFromArgs(args: ParsedArgs, io: CommandIO): Promise<RunningWmServer> {
  const dir = requiredString(args, 'model');
  const provider = stringOpt(args, 'provider');
  if (provider !== undefined && !(PROVIDERS as readonly string[]).includes(provider)) throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}, got "${provider}"`);
  const port = intOpt(args, 'port', DEFAULT_PORT);
  if (port < 0 || port > 65535) throw new UsageError(`--port must be in 0..65535, got ${port}`);
  const maxWaitMs = intOpt(args, 'max-wait-ms', 5);
  if (maxWaitMs < 0) throw new UsageError(`--max-wait-ms must be ≥ 0, got ${maxWaitMs}`);
  // A token on the command line shows in `ps`; the environment variable does not.
  const token = stringOpt(args, 'token') ?? process.env['DIFFWORLD_WM_TOKEN'];
  if (token !== undefined && token.length < 8) throw new UsageError('--token must be at least 8 characters');
  const modelId = stringOpt(args, 'model-id');
  const scheduling = stringOpt(args, 'scheduling') ?? 'auto';
  if (!(SCHEDULING_MODES as readonly string[]).includes(scheduling)) throw new UsageError(`--scheduling must be one of ${SCHEDULING_MODES.join(', ')}, got "${scheduling}"`);
  // Every option is checked before the model loads, so a typo fails at once.
  const options = {
    host: stringOpt(args, 'host') ?? '127.0.0.1',
    port,
    ...(token ? { token } : {}),
    scheduling: scheduling as SchedulingMode,
    maxBatch: positiveIntOpt(args, 'max-batch', 32),
    maxWaitMs,
    maxQueue: positiveIntOpt(args, 'max-queue', 1024),
    generateTimeoutMs: positiveIntOpt(args, 'timeout-ms', 300_000),
    processMetrics: true,
    log: (line: string) => io.err(`[wm serve] ${line}`),
  };
  const model = await resolveModelArg(dir, '--model', io);
  const backend = await GeneratorBackend.load(model.dir, { ...(provider ? { provider: provider as ProviderName } : {}), ...(modelId ? { modelId } : model.repoId ? { modelId: model.repoId } : {}) });
  if (scheduling === 'continuous' && !backend.openContinuous) throw new UsageError(`--scheduling continuous is for ar checkpoints; ${model.dir} is ${backend.generator.objective} (use auto or batch)`);
  return startWmServer(backend, options);
}

const serve: Command = {
  path: ['wm', 'serve'],
  summary: "serve a world model over OpenAI chat completions and the paper's proxy route, with continuous or dynamic batching",
  help: `Usage: diffworld wm serve --model DIR|HUB_ID [--port P] [--host H] [--token T] [--scheduling auto|continuous|batch] [--max-batch N] [--max-wait-ms MS]

Serves a trained checkpoint (a run's model/ or checkpoint-N/ directory) over HTTP:
  POST /v1/chat/completions   OpenAI chat completions (stream: true for server-sent events), plus
                              block_length, unmasking_strategy, confidence_threshold, denoising_steps, anchors
  POST / and /predict         the paper's wm_proxy contract: {system_prompt, state, action, ...} → {generated_text}
  GET  /v1/models, /health, /metrics (Prometheus)
An ar checkpoint is served with continuous batching: each request takes a free one of --max-batch
rows at the next decoding step and leaves at the step it ends, whatever its sampling options, so a
short answer never waits for a long one. bd3 and mdlm checkpoints (a step is not one token per row)
use dynamic batching: concurrent requests with equal sampling options are generated in one batch.
Binds 127.0.0.1 unless --host says otherwise. Ctrl-C finishes the requests in flight, then stops.

Options:
  --model DIR        checkpoint directory or Hub model org/name[@revision] (required)
  --port P           default ${DEFAULT_PORT} (the paper's proxy port); 0 picks a free one
  --host H           default 127.0.0.1
  --token T          require "Authorization: Bearer T" (or set DIFFWORLD_WM_TOKEN); /health stays open
  --scheduling MODE  auto (default: continuous for ar checkpoints, batch otherwise) | continuous | batch
  --max-batch N      sequences per batch, or rows decoded together under continuous batching
                     (default 32; 1 turns batching off)
  --max-wait-ms MS   how long a lone request waits for company (default 5; batch scheduling only)
  --max-queue N      sequences queued before 429 + Retry-After (default 1024)
  --timeout-ms MS    generation deadline per request, then 504 (default 300000)
  --model-id ID      the id /v1/models serves (default: the run directory's name, or the Hub id)
  --provider NAME    cuda | webgpu | cpu (default: the first that works)

${HUB_MODEL_HELP}

Example:
  npx diffworld wm serve --model runs/alfworld-bd3/model --port 30000
  curl -s localhost:30000/ -d '{"state": [], "action": "look"}'`,
  options: {
    model: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    scheduling: { type: 'string' },
    'max-batch': { type: 'string' },
    'max-wait-ms': { type: 'string' },
    'max-queue': { type: 'string' },
    'timeout-ms': { type: 'string' },
    'model-id': { type: 'string' },
    provider: { type: 'string' },
  },
  async run(args, io) {
    const server = await startFromArgs(args, io);
    io.out(`world model server listening on ${server.url}`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        io.err('[wm serve] finishing requests in flight…');
        void server.close().then(resolve);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return EXIT.ok;
  },
};

export const WM_SERVE_COMMANDS: readonly Command[] = [serve];
