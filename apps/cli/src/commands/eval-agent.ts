// `diffworld eval agent`: a policy (the env's expert, a seeded random one, or a remote
// OpenAI-compatible endpoint) against the real engine on one split; writes the episode records,
// the summary and the report.
import { evaluateAgent, expertPolicy, randomPolicy, readMetricsJsonl, remotePolicy, writeAgentEvaluation, type Policy } from '@diffworld/eval';
import { ENV_NAMES, envSuite } from '@diffworld/envs';
import { checkSplit, loadPromptSet } from '@diffworld/env-core';
import { EXIT, UsageError, intOpt, positiveIntOpt, numberOpt, requiredString, stringOpt, type Command, type ParsedArgs } from '../command.js';

const HELP = `Usage: diffworld eval agent --env ENV --policy POLICY --split SPLIT --out DIR [options]

Plays one episode per task of a split against the real engine (the env's step limit and the paper
harness's prompts and action parser), and writes:
  DIR/episodes.jsonl   env-core episode records, in task order
  DIR/summary.json     success rate (Wilson 95% interval), mean score, mean steps, episodes truncated,
                       overall and per task type
  DIR/report.html      self-contained report with charts (and training curves with --metrics)
  DIR/report.md        the same numbers in Markdown
Progress goes to stderr.

Options:
  --env ENV          ${ENV_NAMES.join(' | ')}
  --policy POLICY    expert | random | an http(s) URL of an OpenAI-compatible server
                     (POST URL/v1/chat/completions)
  --split SPLIT      a split of the env (${ENV_NAMES.map((n) => `${n}: ${envSuite(n).splits.join(', ')}`).join('; ')})
  --out DIR          output directory (created)
  --workers N        worker threads for the expert and random policies (default 1); a remote
                     policy plays in the main thread, limited by --concurrency
  --limit N          play a seeded sample of N tasks of the split (default: all)
  --games FILE       play the imported real games of FILE that belong to the split instead of the
                     split's generated tasks (alfworld: \`diffworld env import alfworld\` output)
  --prompts FILE     the paper's agent system prompt (\`diffworld env prompts extract\` output)
                     instead of ours
  --seed S           seed of the task sample and of the random policy (default 0)
  --model NAME       model name sent to the server (default "default")
  --temperature T    sampling temperature sent to the server (default 0)
  --max-tokens N     max_tokens sent to the server (default 512)
  --concurrency N    requests in flight to the server (default 8)
  --timeout-ms N     per-request timeout (default 120000); failed requests are retried 4 times
                     (5xx, 429, timeouts); a 400 or 413 (the conversation outgrew the model's
                     context) ends that episode as truncated; a 401, 403 or 404 (token, --model
                     name, URL) stops the run with exit code 2
  --metrics FILE     a metrics JSONL of a training run ({"step": …, numeric fields}) to draw as
                     curves in the report; repeat for several runs

Examples:
  diffworld eval agent --env alfworld --policy expert --split eval_out_of_distribution --out runs/expert
  diffworld eval agent --env alfworld --policy random --split train --limit 200 --workers 2 --out runs/random
  diffworld eval agent --env sciworld --policy http://127.0.0.1:8000 --model qwen3-1.7b --split test --out runs/q --metrics runs/grpo/metrics.jsonl`;

function buildPolicy(args: ParsedArgs, seed: number): Policy {
  const spec = requiredString(args, 'policy');
  if (spec === 'expert') return expertPolicy();
  if (spec === 'random') return randomPolicy(seed);
  if (/^https?:\/\//.test(spec)) {
    return remotePolicy({
      url: spec,
      model: stringOpt(args, 'model') ?? 'default',
      temperature: numberOpt(args, 'temperature', 0),
      maxTokens: intOpt(args, 'max-tokens', 512),
      concurrency: intOpt(args, 'concurrency', 8),
      timeoutMs: intOpt(args, 'timeout-ms', 120_000),
    });
  }
  throw new UsageError(`--policy must be expert, random or an http(s):// URL, got "${spec}"`);
}

const agentCommand: Command = {
  path: ['eval', 'agent'],
  summary: 'evaluate a policy (expert | random | OpenAI-compatible URL) on an env split; report with charts',
  help: HELP,
  options: {
    env: { type: 'string' },
    policy: { type: 'string' },
    split: { type: 'string' },
    out: { type: 'string' },
    workers: { type: 'string' },
    limit: { type: 'string' },
    games: { type: 'string' },
    prompts: { type: 'string' },
    seed: { type: 'string' },
    model: { type: 'string' },
    temperature: { type: 'string' },
    'max-tokens': { type: 'string' },
    concurrency: { type: 'string' },
    'timeout-ms': { type: 'string' },
    metrics: { type: 'string', multiple: true },
  },
  async run(args, io) {
    const env = requiredString(args, 'env');
    if (!(ENV_NAMES as readonly string[]).includes(env)) throw new UsageError(`--env must be one of ${ENV_NAMES.join(', ')}, got "${env}"`);
    // Checked here (before any work) by the one split check; evaluateAgent takes it as given.
    const split = checkSplit(envSuite(env), requiredString(args, 'split'));
    const promptsFile = stringOpt(args, 'prompts');
    const prompts = promptsFile === undefined ? undefined : loadPromptSet(envSuite(env), promptsFile);
    const out = requiredString(args, 'out');
    const seed = intOpt(args, 'seed', 0);
    const workers = positiveIntOpt(args, 'workers', 1);
    const limitText = stringOpt(args, 'limit');
    const limit = limitText === undefined ? undefined : intOpt(args, 'limit', 0);
    if (limit !== undefined && limit < 1) throw new UsageError(`--limit must be at least 1, got ${limit}`);
    const policy = buildPolicy(args, seed);
    const metricsFiles = (args.values.metrics as string[] | undefined) ?? [];
    const metrics = await Promise.all(metricsFiles.map((f) => readMetricsJsonl(f)));

    io.err(`eval agent: ${env}/${split}, policy ${policy.name}, ${limit ?? 'all'} tasks, ${workers} worker(s)`);
    const t0 = performance.now();
    let lastReport = 0;
    const evaluation = await evaluateAgent({
      env,
      policy,
      split,
      workers,
      seed,
      limit,
      ...(stringOpt(args, 'games') === undefined ? {} : { gamesFile: stringOpt(args, 'games')! }),
      ...(prompts ? { prompts } : {}),
      onProgress: (done, total) => {
        const now = performance.now();
        if (done < total && now - lastReport < 2000) return;
        lastReport = now;
        const rate = done / ((now - t0) / 1000);
        io.err(`  ${done}/${total} episodes  ${rate.toFixed(1)} ep/s  ETA ${done < total ? ((total - done) / rate).toFixed(0) : 0}s`);
      },
    });
    const paths = await writeAgentEvaluation(out, evaluation, metrics);
    const s = evaluation.summary.overall;
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    io.out(
      `${env}/${split} ${policy.name}: success ${pct(s.successRate)} [${pct(s.successCI95[0])}, ${pct(s.successCI95[1])}] over ${s.episodes} episodes, mean score ${s.meanScore.toFixed(2)}, mean steps ${s.meanSteps.toFixed(1)}`,
    );
    const cut = evaluation.records.find((r) => r.truncated !== undefined);
    if (cut) io.out(`${s.truncated} of ${s.episodes} episodes truncated: the policy could not answer (counted as not won; first, ${cut.task_id}: ${cut.truncated})`);
    io.out(`wrote ${paths.episodes}, ${paths.summary}, ${paths.html}, ${paths.markdown}`);
    return EXIT.ok;
  },
};

export const EVAL_AGENT_COMMANDS: readonly Command[] = [agentCommand];
