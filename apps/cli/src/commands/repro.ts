// `diffworld repro <env> [--config PRESET|FILE]`: the paper's two questions at small scale, run by
// the experiments app's runRepro as stages of the one runner; this module only reads the command
// line and prints where the report is. The config is the same schema as `grpo train`'s.
import { resolve } from 'node:path';
import { ENV_NAMES } from '@diffworld/envs';
import { EXIT, UsageError, positional, stringOpt, type Command } from '../command.js';
import { EXPERIMENT_OPTIONS, EXPERIMENT_OPTIONS_HELP, experimentConfig } from './experiment-options.js';

const HELP = `Usage: diffworld repro <${ENV_NAMES.join('|')}> [--config PRESET|FILE] [--out DIR]

Runs the paper's two questions at small scale, each stage cached by a hash of its inputs under
DIR/stages/<stage>-<hash>/ (result.json when done), so a rerun skips what is done and a killed
stage continues:
  tokenizer, data  a BPE tokenizer; corpus rows from the real engine (expert and perturbed
                   episodes), length diversification, every row within worldModel.train.seqLength
  train-ar/bd3     an autoregressive and a block-diffusion world model: same architecture, data,
                   seed and step budget; bd3 adapted from the ar model's weights (SDAR's recipe;
                   worldModel.bd3Init "scratch" trains it from random weights)
  fidelity-*       held-out transitions: exact/semantic match, ROUGE-L, BLEU-1, MAUVE; Self-BLEU-3
                   and Distinct-1/2 among K samples; ms per transition, forwards per token
  steering-*       fixed status and closing fields as anchors: kept, and ROUGE-L of the rest
  replay-*         world-model rollouts of expert actions replayed in the real engine
  rq2              per seed (seeds): SFT, GRPO in each world model and in the real engine at the
                   same budget, success on held-out tasks (mean over seeds and pooled, 95% intervals)
Writes DIR/results.json, DIR/report.md and DIR/report.html (the paper's tables, ours beside them).

Options:
${EXPERIMENT_OPTIONS_HELP}
                        (default tmp/repro/<env>)
  --env NAME            the env, instead of the positional argument

Examples:
  diffworld repro alfworld --config micro --out /tmp/repro-micro
  diffworld repro sciworld --config gpu --set seeds=[0,1,2,3]
  npx nx run cli:repro:alfworld`;

const repro: Command = {
  path: ['repro'],
  summary: "the paper's two questions at small scale: BD3 vs AR world models, and GRPO inside them; cached stages, report",
  help: HELP,
  options: EXPERIMENT_OPTIONS,
  maxPositionals: 1,
  async run(args, io) {
    const env = args.positionals.length > 0 ? positional(args, 0, 'env') : stringOpt(args, 'env');
    if (env !== undefined && !(ENV_NAMES as readonly string[]).includes(env)) throw new UsageError(`unknown env "${env}"; one of ${ENV_NAMES.join(', ')}`);
    if (env === undefined && (stringOpt(args, 'config') ?? 'cpu').match(/^[a-z][a-z0-9-]*$/)) throw new UsageError(`missing argument: env (${ENV_NAMES.join(', ')})`);
    const config = await experimentConfig(args, env);
    if (args.values['print-config']) {
      io.out(JSON.stringify(config, null, 2));
      return EXIT.ok;
    }
    const { runRepro } = await import('@diffworld/experiments');
    const out = resolve(stringOpt(args, 'out') ?? `tmp/repro/${config.env}`);
    const r = await runRepro({ config, out, log: (l) => io.err(l) });
    const s = r.results;
    const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
    io.out(
      `${config.env}: exact match BD3 ${s.fidelity.bd3.exactMatch.toFixed(3)} / AR ${s.fidelity.ar.exactMatch.toFixed(3)}; Self-BLEU-3 among ${s.fidelity.bd3.samples} samples BD3 ${s.fidelity.bd3.selfBleu3.toFixed(3)} / AR ${s.fidelity.ar.selfBleu3.toFixed(3)}; anchors kept BD3 ${s.steering.bd3.anchored ? pct(s.steering.bd3.anchored.fieldsKept) : '—'}; replay reproduced BD3 ${pct(s.replay.bd3.reproduced)} / AR ${pct(s.replay.ar.reproduced)}`,
    );
    io.out(`RQ2 success (mean over seeds ${s.rq2.seeds.join(',')}): ${s.rq2.policies.map((p) => `${p.policy} ${pct(p.mean)}`).join(', ')}`);
    io.out(`stages: ${s.stages.map((st) => `${st.stage} ${st.cached ? 'cached' : 'ran'}`).join(', ')}`);
    io.out(`wrote ${r.paths.markdown}, ${r.paths.html}, ${r.paths.results}`);
    return EXIT.ok;
  },
};

export const REPRO_COMMANDS: readonly Command[] = [repro];
