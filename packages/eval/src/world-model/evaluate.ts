// `eval wm`: generate a world model's outputs for chat rows, then score them exactly as
// `eval score --diversity --mauve` does (same files, same summary entry), and add what needs
// several samples per prompt: Self-BLEU and Distinct-N among the K samples of each prompt,
// averaged over prompts. Sample 0 is `<name>_outputs.jsonl`; sample k ≥ 1 lives in
// `<name>_samples/<k>_outputs.jsonl` with seeds offset by k·SAMPLE_SEED_STRIDE. Every file resumes.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@diffworld/dataset';
import { distinctN, selfBleu } from '../diversity.js';
import { EvalError } from '../errors.js';
import { scoreFiles } from '../files.js';
import { exactByStateChanges, readStateChanges } from './breakdown.js';
import { HashingFeaturizer } from '../mauve/featurizer.js';
import type { Normalization } from '../normalize.js';
import { pyFloat, pyJsonDumps, pyJsonLoads, type PyDict, type PyJson } from '../pyjson.js';
import type { ChatCompleter } from './completer.js';
import { generateOutputs, SKIPPED_OVERLONG, type GenerateOutputsResult, type OutputRow } from './outputs.js';

/** Seeds of sample k are seed + k·stride + row index. */
export const SAMPLE_SEED_STRIDE = 1_000_003;

export interface EvaluateWorldModelOptions {
  completer: ChatCompleter;
  data: string;
  outDir: string;
  /** Dataset name: file prefix and summary key (default: the data file name without extension). */
  name: string;
  /** Samples per prompt (default 1); diversity among samples needs 2 or more. */
  samples?: number;
  seed?: number;
  batchSize?: number;
  limit?: number;
  normalization?: Normalization;
  /** Dimensions of the hashing featurizer MAUVE uses (default 64, as eval score). */
  mauveDims?: number;
  /** Worker threads for MAUVE's k-means (undefined: by size; 0: inline). */
  workers?: number;
  log?: (line: string) => void;
}

export interface WorldModelEvaluation {
  outputs: string[];
  generation: GenerateOutputsResult[];
  summaryPath: string;
  scoredPath: string;
  /** This dataset's entry of eval_summary.json. */
  summary: PyDict;
}

export function outputsPath(outDir: string, name: string, sample: number): string {
  return sample === 0 ? join(outDir, `${name}_outputs.jsonl`) : join(outDir, `${name}_samples`, `${sample}_outputs.jsonl`);
}

const usable = (r: OutputRow) => !r.prediction_raw.startsWith('ERROR') && r.prediction_raw !== SKIPPED_OVERLONG;

/** Mean over prompts of Self-BLEU-3 and Distinct-1/2 among each prompt's samples. */
function sampleDiversity(files: readonly string[]): PyDict {
  const byIndex = new Map<number, string[]>();
  for (const f of files) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as OutputRow;
      if (!usable(r)) continue;
      byIndex.set(r.index, [...(byIndex.get(r.index) ?? []), r.prediction_raw]);
    }
  }
  const groups = [...byIndex.values()].filter((g) => g.length >= 2);
  let sb = 0,
    d1 = 0,
    d2 = 0,
    identical = 0;
  let variants: PyDict = new Map();
  for (const g of groups) {
    const s = selfBleu(g, { sampleSize: 'all' });
    const a = distinctN(g, 1),
      b = distinctN(g, 2);
    sb += s.value;
    d1 += a.value;
    d2 += b.value;
    if (new Set(g).size === 1) identical++;
    variants = new Map<string, PyJson>([
      ['self_bleu_3', s.variant],
      ['distinct_1', a.variant],
      ['distinct_2', b.variant],
    ]);
  }
  const n = groups.length || 1;
  return new Map<string, PyJson>([
    ['samples_per_prompt', files.length],
    ['prompts', groups.length],
    ['self_bleu_3', pyFloat(sb / n)],
    ['distinct_1', pyFloat(d1 / n)],
    ['distinct_2', pyFloat(d2 / n)],
    ['prompts_all_samples_identical', identical],
    ['definition', 'per prompt over its K samples (errors and overlong skipped), then the mean over prompts with 2+ samples'],
    ['variants', variants],
  ]);
}

/** Tokens/s and forwards/token over every sample file generated in this run (local models only). */
function tokenRates(generation: readonly GenerateOutputsResult[], seconds: number): [string, PyJson][] {
  const known = generation.filter((g) => g.tokens !== undefined && g.generated > 0);
  if (known.length === 0) return [];
  const tokens = known.reduce((a, g) => a + g.tokens!, 0),
    forwards = known.reduce((a, g) => a + g.forwards!, 0);
  return [
    ['tokens_per_second', pyFloat(seconds > 0 ? tokens / seconds : 0)],
    ['forwards_per_token', pyFloat(tokens > 0 ? forwards / tokens : 0)],
  ];
}

export async function evaluateWorldModel(o: EvaluateWorldModelOptions): Promise<WorldModelEvaluation> {
  const k = o.samples ?? 1;
  if (!(Number.isInteger(k) && k >= 1)) throw new EvalError('bad_option', `samples must be a positive integer, got ${k}`);
  const log = o.log ?? (() => {});
  const seed = o.seed ?? 0;
  mkdirSync(o.outDir, { recursive: true });
  const outputs: string[] = [];
  const generation: GenerateOutputsResult[] = [];
  for (let s = 0; s < k; s++) {
    const out = outputsPath(o.outDir, o.name, s);
    if (s > 0) mkdirSync(join(o.outDir, `${o.name}_samples`), { recursive: true });
    if (k > 1) log(`sample ${s + 1}/${k} → ${out}`);
    generation.push(
      await generateOutputs({
        completer: o.completer,
        data: o.data,
        out,
        name: o.name,
        seed: seed + s * SAMPLE_SEED_STRIDE,
        log,
        ...(o.batchSize ? { batchSize: o.batchSize } : {}),
        ...(o.limit !== undefined ? { limit: o.limit } : {}),
      }),
    );
    outputs.push(out);
  }

  // Exactly `eval score --pred <outputs> --diversity --mauve [--mauve-dims]`.
  const featurizer = new HashingFeaturizer({ dims: o.mauveDims ?? 64 });
  const common = { pred: outputs[0]!, outDir: o.outDir, name: o.name, normalization: o.normalization ?? 'sdar', diversity: true };
  let scored;
  try {
    scored = await scoreFiles({ ...common, mauve: { featurizer, options: { workers: o.workers } } });
  } catch (e) {
    if (!(e instanceof EvalError && e.message.includes('MAUVE needs at least 2'))) throw e;
    log('MAUVE skipped: fewer than 2 scorable rows');
    scored = await scoreFiles(common);
  }
  const summary = scored.summary;
  const g0 = generation[0]!;
  const totalRows = generation.reduce((a, g) => a + g.generated, 0);
  const totalSecs = generation.reduce((a, g) => a + g.seconds, 0);
  summary.set(
    'generation',
    new Map<string, PyJson>([
      ['model', o.completer.name],
      ['settings', new Map<string, PyJson>(Object.entries(o.completer.settings).map(([key, v]) => [key, typeof v === 'number' && !Number.isInteger(v) ? pyFloat(v) : v]))],
      ['samples', k],
      ['seed', seed],
      ['rows', g0.rows],
      ['errors', g0.errors],
      ['overlong', g0.overlong],
      ['rows_per_second', pyFloat(totalSecs > 0 ? totalRows / totalSecs : 0)],
      ...tokenRates(generation, totalSecs),
      ['mauve_featurizer', summary.has('mauve') ? featurizer.id : null],
    ]),
  );
  if (k >= 2) summary.set('sample_diversity', sampleDiversity(outputs));
  const changes = await readStateChanges(o.data, o.limit);
  const split = changes.size ? exactByStateChanges(scored.rows, changes) : undefined;
  if (split) summary.set('exact_by_state_changes', split);

  // Merge into eval_summary.json as scoreFiles did (other datasets stay).
  let all: PyDict = new Map();
  if (existsSync(scored.summaryPath)) {
    const prev = pyJsonLoads(readFileSync(scored.summaryPath, 'utf8'));
    if (prev instanceof Map) all = prev as PyDict;
  }
  all.set(o.name, summary);
  writeFileAtomic(scored.summaryPath, pyJsonDumps(all, { indent: 2 }));
  return { outputs, generation, summaryPath: scored.summaryPath, scoredPath: scored.scoredPath, summary };
}
