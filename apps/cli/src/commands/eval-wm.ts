// `diffworld eval wm`: a world model's outputs for chat rows (wm generate), scored as eval score
// --diversity --mauve scores them, plus diversity among K samples per prompt and the generation
// settings, in eval_summary.json.
import { existsSync } from 'node:fs';
import { evaluateWorldModel, NORMALIZATIONS, type Normalization, type PyDict } from '@diffworld/eval';
import { EXIT, UsageError, intOpt, positiveIntOpt, requiredString, stringOpt, type Command } from '../command.js';
import { HUB_MODEL_HELP } from '../model-arg.js';
import { mauveLine } from './mauve-note.js';
import { completerFor, dataName, generateOptions, REMOTE_HELP, REMOTE_OPTIONS, SAMPLING_HELP, SAMPLING_OPTIONS } from './wm-sample.js';

const HELP = `Usage: diffworld eval wm --model DIR|HUB_ID|URL --data FILE --out DIR [--samples K] [options]

Evaluates a world model on chat rows (the last message of each is the reference):
  1. generates OUT/<name>_outputs.jsonl as wm generate does (resumable), and for --samples K > 1
     also OUT/<name>_samples/<k>_outputs.jsonl, k = 1..K-1 (row i of sample k: seed + k·1000003 + i);
  2. scores sample 0 exactly as \`eval score --pred OUT/<name>_outputs.jsonl --diversity --mauve\`
     (<name>_scored.jsonl; exact/semantic match, ROUGE-L, BLEU, Self-BLEU-3, Distinct-1/2 across
     prompts, MAUVE against the references with the hashing featurizer);
  3. adds to the dataset's entry of eval_summary.json: "generation" (model, sampling settings,
     samples, rows/s, MAUVE featurizer) and, for K ≥ 2, "sample_diversity" (Self-BLEU-3 and
     Distinct-1/2 among each prompt's K samples, averaged over prompts);
  4. where rows carry meta.state_changes (\`env corpus alfworld --per-step\` writes it: the state facts
     the step changed), "exact_by_state_changes": rows and exact match for 0, 1, 2 and 3+ changes.
Samples differ only through the seed: use --temperature > 0 with --samples (greedy samples are identical).
Prints the fidelity and diversity figures, then MAUVE on a line of its own with the rows and buckets
it was computed over: over fewer than 1,000 rows of hashed n-grams it sits near 1 for most models.

Options:
  --model DIR|HUB_ID|URL  checkpoint directory, Hub model org/name[@revision], or an OpenAI-compatible base URL
  --data FILE             chat rows (.jsonl / .parquet)
  --out DIR               output directory
  --name NAME             dataset name (default: the data file name)
  --samples K             samples per prompt (default 1)
  --limit N               only the first N rows
  --normalization V       sdar (default) | wedlm | llm_training, as eval score
  --mauve-dims N          hashing featurizer dimensions (default 64)
  --workers N             worker threads for MAUVE's k-means (default: by size; 0 = inline)
${SAMPLING_HELP}
${REMOTE_HELP}

${HUB_MODEL_HELP}

Examples:
  diffworld eval wm --model runs/wm-bd3/model --data test-data/wm/alfworld-eval.jsonl --out results/bd3
  diffworld eval wm --model runs/wm-bd3/model --data eval.jsonl --out results/bd3-t1 --samples 4 --temperature 1
  diffworld eval wm --model http://127.0.0.1:8000 --data eval.jsonl --out results/server`;

/** Integers as they are, floats (PyFloat in summaries) to 4 places. */
const fmt = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'number' || (typeof v === 'object' && v !== null) ? Number(v).toFixed(4) : String(v));

const evalWm: Command = {
  path: ['eval', 'wm'],
  summary: 'generate and score a world model (checkpoint or URL) on chat rows: fidelity, diversity over K samples, MAUVE',
  help: HELP,
  options: {
    model: { type: 'string' },
    data: { type: 'string' },
    out: { type: 'string' },
    name: { type: 'string' },
    samples: { type: 'string' },
    limit: { type: 'string' },
    normalization: { type: 'string' },
    'mauve-dims': { type: 'string' },
    workers: { type: 'string' },
    ...SAMPLING_OPTIONS,
    ...REMOTE_OPTIONS,
  },
  async run(args, io) {
    const data = requiredString(args, 'data');
    const outDir = requiredString(args, 'out');
    if (!existsSync(data)) throw new UsageError(`--data ${data}: no such file`);
    const normalization = (stringOpt(args, 'normalization') ?? 'sdar') as Normalization;
    if (!NORMALIZATIONS.includes(normalization)) throw new UsageError(`--normalization must be one of ${NORMALIZATIONS.join(', ')}, got "${normalization}"`);
    const samples = positiveIntOpt(args, 'samples', 1);
    const dims = intOpt(args, 'mauve-dims', 64);
    if (dims < 2) throw new UsageError(`--mauve-dims must be at least 2, got ${dims}`);
    const workers = stringOpt(args, 'workers') === undefined ? undefined : intOpt(args, 'workers', 0);
    if (workers !== undefined && workers < 0) throw new UsageError(`--workers must be 0 or more, got ${workers}`);
    const limit = stringOpt(args, 'limit') === undefined ? undefined : positiveIntOpt(args, 'limit', 1);
    const options = generateOptions(args);
    if (samples > 1 && options.temperature === 0) io.err('note: --samples with --temperature 0 (greedy): every sample of a prompt is the same');
    const completer = await completerFor(args, io);
    const name = stringOpt(args, 'name') ?? dataName(data);
    const r = await evaluateWorldModel({
      completer,
      data,
      outDir,
      name,
      samples,
      normalization,
      mauveDims: dims,
      seed: options.seed!,
      batchSize: options.batchSize!,
      ...(workers !== undefined ? { workers } : {}),
      ...(limit !== undefined ? { limit } : {}),
      log: (l) => io.err(l),
    });
    const s = r.summary;
    const mauve = s.get('mauve') as PyDict | undefined;
    const div = s.get('sample_diversity') as PyDict | undefined;
    const gen = s.get('generation') as PyDict;
    io.out(
      `${name}: ${fmt(s.get('num_samples'))} rows scored — exact ${fmt(s.get('exact_match'))}, semantic ${fmt(s.get('semantic_match'))}, ROUGE-L ${fmt(s.get('rouge_l_f1'))}${div ? `; among ${samples} samples: Self-BLEU-3 ${fmt(div.get('self_bleu_3'))}, Distinct-2 ${fmt(div.get('distinct_2'))}` : ''}; ${Number(gen.get('rows_per_second')).toFixed(2)} rows/s`,
    );
    const split = s.get('exact_by_state_changes') as PyDict | undefined;
    if (split) io.out(`${name}: exact by state facts changed — ${[...split].map(([b, v]) => `${b}: ${fmt((v as PyDict).get('exact_match'))} (${fmt((v as PyDict).get('rows'))} rows)`).join(' · ')}`);
    // MAUVE on its own line with what it was computed over: over few rows it is near 1 for any model.
    if (mauve) io.out(`${name}: ${mauveLine(mauve)}`);
    io.out(`wrote ${r.outputs.join(', ')}, ${r.scoredPath}, ${r.summaryPath}`);
    return EXIT.ok;
  },
};

export const EVAL_WM_COMMANDS: readonly Command[] = [evalWm];
