// `diffworld eval score`: world-model fidelity metrics of predictions against references, computed
// and written as the reference evaluate.py scripts do (plus the metrics they lack, named apart).
import { HashingFeaturizer, NORMALIZATIONS, scoreFiles, type Normalization, type PyDict } from '@diffworld/eval';
import { EXIT, UsageError, intOpt, requiredString, stringOpt, type Command } from '../command.js';
import { mauveLine } from './mauve-note.js';

const HELP = `Usage: diffworld eval score --pred P.jsonl [--ref R.jsonl] [options]

Scores world-model predictions against references and writes <name>_scored.jsonl and
eval_summary.json (merged with datasets already in it) in the shapes of the reference evaluate.py.
Predictions are read from prediction_raw | predicted | generated, references from
reference | expected | ground_truth (or, in a --ref file, the last message of a chat row).

Options:
  --pred FILE             JSONL of predictions (may hold the references too)
  --ref FILE              JSONL of references; joined by "index" when every row has one, else by line
  --out DIR               output directory (default: the directory of --pred)
  --name NAME             dataset name (default: --pred file name without _outputs.jsonl)
  --normalization V       sdar (default) | wedlm | llm_training: which evaluate.py to reproduce
  --keep-errors           keep predictions starting with "ERROR" (sdar drops them)
  --keep-empty-ref        keep rows whose normalized reference is empty
  --keep-overlong         keep rows flagged skipped_overlong (wedlm drops them)
  --no-dedupe             do not drop repeated "index" values (sdar keeps the first)
  --extract-output-field  reduce references to {output, exception} (api_bank-style rows)
  --diversity             add Self-BLEU-3 and Distinct-1/2 of predictions and references
  --mauve                 add MAUVE(predictions, references) with the hashing featurizer
  --mauve-dims N          dimensions of the hashing featurizer (default 64)
  --workers N             worker threads for MAUVE's k-means restarts (default: by size; 0 = inline)

Metrics in the summary: exact_match, semantic_match, rouge_l_f1 (PyPI rouge, the reference's
number), rouge_l_f1_rouge_score, bleu1_corpus, bleu1_sentence_mean, bleu4_sentence_mean (sacrebleu,
0-100), with their definitions under metric_definitions.

Examples:
  diffworld eval score --pred out/test_outputs.jsonl
  diffworld eval score --pred preds.jsonl --ref data/test.jsonl --out results --name test --diversity --mauve`;

const scoreCommand: Command = {
  path: ['eval', 'score'],
  summary: 'score predictions vs references (exact/semantic match, ROUGE-L, BLEU, diversity, MAUVE)',
  help: HELP,
  options: {
    pred: { type: 'string' },
    ref: { type: 'string' },
    out: { type: 'string' },
    name: { type: 'string' },
    normalization: { type: 'string' },
    'keep-errors': { type: 'boolean' },
    'keep-empty-ref': { type: 'boolean' },
    'keep-overlong': { type: 'boolean' },
    'no-dedupe': { type: 'boolean' },
    'extract-output-field': { type: 'boolean' },
    diversity: { type: 'boolean' },
    mauve: { type: 'boolean' },
    'mauve-dims': { type: 'string' },
    workers: { type: 'string' },
  },
  async run(args, io) {
    const normalization = (stringOpt(args, 'normalization') ?? 'sdar') as Normalization;
    if (!NORMALIZATIONS.includes(normalization)) throw new UsageError(`--normalization must be one of ${NORMALIZATIONS.join(', ')}, got "${normalization}"`);
    const flag = (name: string): true | undefined => (args.values[name] === true ? true : undefined);
    const dims = intOpt(args, 'mauve-dims', 64);
    if (dims < 2) throw new UsageError(`--mauve-dims must be at least 2, got ${dims}`);
    const workersRaw = stringOpt(args, 'workers');
    const workers = workersRaw === undefined ? undefined : intOpt(args, 'workers', 0);
    if (workers !== undefined && workers < 0) throw new UsageError(`--workers must be 0 or more, got ${workers}`);
    const t0 = Date.now();
    const r = await scoreFiles({
      pred: requiredString(args, 'pred'),
      ref: stringOpt(args, 'ref'),
      outDir: stringOpt(args, 'out'),
      name: stringOpt(args, 'name'),
      normalization,
      dropErrors: flag('keep-errors') ? false : undefined,
      dropEmptyRef: flag('keep-empty-ref') ? false : undefined,
      dropOverlong: flag('keep-overlong') ? false : undefined,
      dedupeByIndex: flag('no-dedupe') ? false : undefined,
      extractOutputField: flag('extract-output-field'),
      diversity: flag('diversity'),
      mauve: flag('mauve') ? { featurizer: new HashingFeaturizer({ dims }), options: { workers } } : undefined,
    });
    printSummary(r.name, r.summary, io.out);
    io.out(`wrote ${r.scoredPath} and ${r.summaryPath} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return EXIT.ok;
  },
};

function printSummary(name: string, s: PyDict, out: (line: string) => void): void {
  // Counts are ints; metrics are floats (integral ones arrive as PyFloat, whose valueOf is the number).
  const count = (k: string): string => String(Number(s.get(k)));
  const metric = (v: unknown): string => (v === undefined ? '-' : Number(v).toFixed(4));
  out(`${name}: ${count('num_samples')} samples`);
  for (const k of ['num_dropped_errors', 'num_skipped_overlong', 'num_empty_ref_dropped']) if (s.has(k)) out(`  ${k.padEnd(24)} ${count(k)}`);
  for (const k of ['exact_match', 'semantic_match', 'rouge_l_f1', 'rouge_l_f1_rouge_score', 'bleu1_corpus', 'bleu1_sentence_mean', 'bleu4_sentence_mean']) out(`  ${k.padEnd(24)} ${metric(s.get(k))}`);
  const m = s.get('mauve');
  if (m instanceof Map) out(`  ${mauveLine(m)}`);
}

export const EVAL_COMMANDS: readonly Command[] = [scoreCommand];
