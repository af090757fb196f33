// `diffworld grpo train --env <name> [--config PRESET|FILE]`: the agent pipeline of one environment
// (the experiments app's runGrpoTrain); `nx run grpo:train:<env>` calls it. This module only reads
// the command line and prints the report.
import { relative, resolve } from 'node:path';
import { ENV_NAMES } from '@diffworld/envs';
import { EXIT, UsageError, stringOpt, type Command } from '../command.js';
import { EXPERIMENT_OPTIONS, EXPERIMENT_OPTIONS_HELP, experimentConfig } from './experiment-options.js';

const HELP = `Usage: diffworld grpo train --env <${ENV_NAMES.join('|')}> [--config PRESET|FILE] [options]

Trains agents for one environment, as the paper's stage 2, each step a stage of the run directory:
  tokenizer         byte-level BPE on the env's corpus, agent prompts and expert actions
  data, train-bd3   world-model rows from the real engine and the world model (unless the config
                    names one: worldModel.path, or served ones: worldModel.urls); a bd3 model is
                    adapted from an ar model trained first (train-ar; worldModel.bd3Init "scratch":
                    from random weights)
  policy-base, sft  the policy's initial weights, SFT on expert demonstrations
  grpo-world-model  GRPO inside the world model (worldModel.useResponder: the env's local responder)
  grpo-real         GRPO against the real engine, same budget, seed and task stream
  eval-*            every policy on the held-out split of the real engine (Wilson 95% intervals)
then report.md and report.html. Run it again to continue: finished stages are skipped, a killed
stage continues from its last checkpoint, and changed settings rerun just the stages that read them.

Options:
  --env NAME            alfworld | sciworld | appworld (required unless the config file names it)
${EXPERIMENT_OPTIONS_HELP}
                        (default tmp/grpo-<env>, or tmp/grpo-<preset>-<env> for another preset)

Exit status: 0 done (the report on stdout, then a one-line summary), 2 bad settings (a misspelt or
out-of-range key is named by its path) or a config over memoryBudgetGB, 1 any other failure.

Examples:
  diffworld grpo train --env alfworld
  diffworld grpo train --env sciworld --config gpu --out /data/grpo-sciworld
  diffworld grpo train --env alfworld --set grpo.steps=40 --set worldModel.urls=http://127.0.0.1:8000
  diffworld grpo train --env appworld --config my-run.json --print-config
  npx nx run grpo:train:alfworld        (also :sciworld, :appworld, :gpu-<env>)`;

const train: Command = {
  path: ['grpo', 'train'],
  summary: 'the agent pipeline of one env: world model, SFT, GRPO in the world model and in the real engine, held-out success, report',
  help: HELP,
  options: EXPERIMENT_OPTIONS,
  maxPositionals: 0,
  async run(args, io) {
    const env = stringOpt(args, 'env');
    if (env !== undefined && !(ENV_NAMES as readonly string[]).includes(env)) throw new UsageError(`--env must be one of ${ENV_NAMES.join(', ')}, got "${env}"`);
    const config = await experimentConfig(args, env);
    if (args.values['print-config']) {
      io.out(JSON.stringify(config, null, 2));
      return EXIT.ok;
    }
    const preset = stringOpt(args, 'config');
    const { isPresetName, pipelineSummaryLine, runGrpoTrain } = await import('@diffworld/experiments');
    const tag = preset && isPresetName(preset) && preset !== 'cpu' ? `${preset}-` : '';
    const out = resolve(stringOpt(args, 'out') ?? `tmp/grpo-${tag}${config.env}`);
    const t0 = performance.now();
    const log = (line: string) => io.err(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(5)}s] ${line}`);
    const r = await runGrpoTrain({ config, out, log });
    io.out(r.reportMarkdown);
    const report = relative(process.cwd(), resolve(out, 'report.md'));
    io.out(pipelineSummaryLine(r.report, report.startsWith('..') ? resolve(out, 'report.md') : report));
    return EXIT.ok;
  },
};

export const GRPO_COMMANDS: readonly Command[] = [train];
