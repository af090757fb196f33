// `diffworld repro <env> [--config F]`: the paper's two questions at small scale (issue 20), run by
// @diffworld/grpo's runRepro as content-addressed, resumable stages; this module only reads the
// command line and the config file and prints where the report is.
import { readFileSync } from 'node:fs';
import { ENV_NAMES } from '@diffworld/envs';
import { GrpoError, resolveReproConfig, runRepro } from '@diffworld/grpo';
import { EXIT, UsageError, positional, stringOpt, type Command } from '../command.js';

const HELP = `Usage: diffworld repro <${ENV_NAMES.join('|')}> [--config FILE] [--out DIR]

Runs the paper's two questions at small scale, each stage cached by a hash of its inputs under
DIR/stages/<stage>-<hash>/ (result.json when done), so a rerun skips what is done and a killed
stage continues:
  data          corpus rows from the real engine (expert and perturbed episodes), length
                diversification, a BPE tokenizer, every row within corpus.maxRowTokens
  train-bd3/ar  a block-diffusion and an autoregressive world model: same architecture, data,
                seed and step budget
  fidelity-*    held-out transitions: exact/semantic match, ROUGE-L, BLEU-1, MAUVE; Self-BLEU-3
                and Distinct-1/2 among K samples; ms per transition, forwards per token
  steering-*    fixed status and closing fields as anchors: kept, and ROUGE-L of the rest
  replay-*      world-model rollouts of expert actions replayed in the real engine
  rq2           per seed: SFT, GRPO in each world model and in the real engine at the same
                budget, success on held-out tasks (mean over seeds and pooled, 95% intervals)
Writes DIR/results.json, DIR/report.md and DIR/report.html (the paper's tables, ours beside them).

Options:
  --config FILE   JSON settings (sections corpus, tokenizer, worldModel, fidelity, steering,
                  replay, rq2; see packages/grpo/configs/repro/micro.json and gpu.json).
                  Default: the built-in defaults
  --out DIR       run directory (default tmp/repro/<env>)

Examples:
  diffworld repro alfworld --config packages/grpo/configs/repro/micro.json --out /tmp/repro-micro
  npx nx run cli:repro:alfworld`;

const repro: Command = {
  path: ['repro'],
  summary: "the paper's two questions at small scale: BD3 vs AR world models, and GRPO inside them; cached stages, report",
  help: HELP,
  options: { config: { type: 'string' }, out: { type: 'string' } },
  maxPositionals: 1,
  async run(args, io) {
    const env = positional(args, 0, 'env');
    if (!(ENV_NAMES as readonly string[]).includes(env)) throw new UsageError(`unknown env "${env}"; one of ${ENV_NAMES.join(', ')}`);
    const configPath = stringOpt(args, 'config');
    let file: unknown;
    if (configPath) {
      let text: string;
      try {
        text = readFileSync(configPath, 'utf8');
      } catch (e) {
        throw new UsageError(`--config ${configPath}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
      }
      try {
        file = JSON.parse(text);
      } catch (e) {
        throw new UsageError(`--config ${configPath}: not valid JSON (${(e as Error).message})`);
      }
    }
    const out = stringOpt(args, 'out') ?? `tmp/repro/${env}`;
    try {
      const config = resolveReproConfig(file, env, configPath ?? 'repro config');
      const r = await runRepro({ config, out, log: (l) => io.err(l) });
      const s = r.results;
      const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
      io.out(
        `${env}: MAUVE BD3 ${s.fidelity.bd3.mauve?.toFixed(3) ?? '—'} / AR ${s.fidelity.ar.mauve?.toFixed(3) ?? '—'}; Self-BLEU-3 among ${s.fidelity.bd3.samples} samples BD3 ${s.fidelity.bd3.selfBleu3.toFixed(3)} / AR ${s.fidelity.ar.selfBleu3.toFixed(3)}; anchors kept BD3 ${s.steering.bd3.anchored ? pct(s.steering.bd3.anchored.fieldsKept) : '—'}; replay reproduced BD3 ${pct(s.replay.bd3.reproduced)} / AR ${pct(s.replay.ar.reproduced)}`,
      );
      io.out(`RQ2 success (mean over seeds ${s.rq2.seeds.join(',')}): ${s.rq2.policies.map((p) => `${p.policy} ${pct(p.mean)}`).join(', ')}`);
      io.out(`stages: ${s.stages.map((st) => `${st.stage} ${st.cached ? 'cached' : 'ran'}`).join(', ')}`);
      io.out(`wrote ${r.paths.markdown}, ${r.paths.html}, ${r.paths.results}`);
      return EXIT.ok;
    } catch (e) {
      if (e instanceof GrpoError && (e.code === 'bad_config' || e.code === 'memory')) throw new UsageError(e.message);
      throw e;
    }
  },
};

export const REPRO_COMMANDS: readonly Command[] = [repro];
