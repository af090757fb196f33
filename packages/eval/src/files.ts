// `eval score` on files: read predictions (and optionally references from a second file), score them,
// write `<name>_scored.jsonl` and merge this dataset into `eval_summary.json` (the reference's shapes).
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { distinctN, selfBleu } from './diversity.js';
import { EvalError } from './errors.js';
import { writeFileAtomic } from '@diffworld/dataset';
import { formatJsonl, readJsonl } from './jsonl.js';
import { HashingFeaturizer, type Featurizer } from './mauve/featurizer.js';
import { mauve, type MauveOptions } from './mauve/mauve.js';
import { pyFloat, pyJsonDumps, pyJsonLoads, type PyDict, type PyJson } from './pyjson.js';
import { REFERENCE_KEYS, scoreRows, type ScoreOptions } from './score.js';

export interface ScoreFilesOptions extends ScoreOptions {
  pred: string;
  /** A second file with the references; rows are joined by `index` when every row has one, else by line. */
  ref?: string;
  outDir?: string; // default: the prediction file's directory
  name?: string; // default: the prediction file name without `.jsonl` and `_outputs`
  diversity?: boolean;
  mauve?: boolean | { featurizer?: Featurizer; options?: MauveOptions };
}

export interface ScoreFilesResult {
  name: string;
  scoredPath: string;
  summaryPath: string;
  summary: PyDict;
  /** The scored rows, as written to scoredPath. */
  rows: PyDict[];
}

export function datasetName(predPath: string): string {
  return basename(predPath)
    .replace(/\.jsonl$/, '')
    .replace(/_outputs$/, '');
}

/** The reference text of a reference-file row: a reference field, or the last chat message. */
function referenceOf(row: PyDict, where: string): PyJson {
  for (const k of REFERENCE_KEYS) if (row.has(k)) return row.get(k)!;
  const msgs = row.get('messages');
  if (Array.isArray(msgs) && msgs.length > 0) {
    const last = msgs[msgs.length - 1]!;
    if (last instanceof Map && typeof last.get('content') === 'string') return last.get('content')!;
  }
  throw new EvalError('bad_row', `no reference: expected one of ${REFERENCE_KEYS.join(', ')} or a non-empty "messages" list`, where);
}

/** Joins prediction rows with reference rows (by index when all rows have one, else by position). */
export function joinReferences(preds: readonly PyDict[], refs: readonly PyDict[], refPath: string): PyDict[] {
  const byIndex = preds.every((r) => r.has('index')) && refs.every((r) => r.has('index'));
  if (byIndex) {
    const map = new Map<string, PyJson>();
    refs.forEach((r, i) => map.set(pyJsonDumps(r.get('index')!), referenceOf(r, `${refPath}:${i + 1}`)));
    return preds.map((p, i) => {
      const key = pyJsonDumps(p.get('index')!);
      if (!map.has(key)) throw new EvalError('bad_row', `prediction row ${i + 1} has index ${key}, which ${refPath} does not have`);
      return new Map([...p, ['reference', map.get(key)!]]);
    });
  }
  if (preds.length !== refs.length) throw new EvalError('bad_row', `without an "index" on every row, files are joined by line: ${preds.length} predictions vs ${refs.length} references`, refPath);
  // Positions become the index, so the default dedupe-by-index keeps every row.
  return preds.map((p, i) => new Map<string, PyJson>([['index', p.get('index') ?? i], ...[...p].filter(([k]) => k !== 'index'), ['reference', referenceOf(refs[i]!, `${refPath}:${i + 1}`)]]));
}

export async function scoreFiles(o: ScoreFilesOptions): Promise<ScoreFilesResult> {
  let rows = await readJsonl(o.pred);
  if (o.ref) rows = joinReferences(rows, await readJsonl(o.ref), o.ref);
  const result = scoreRows(rows, o);
  const summary = result.summary;
  const preds = result.pairs.map((p) => p.prediction);
  const refs = result.pairs.map((p) => p.reference);
  if (o.diversity) summary.set('diversity', diversitySummary(preds, refs));
  if (o.mauve) {
    const m = typeof o.mauve === 'object' ? o.mauve : {};
    if (preds.length < 2) throw new EvalError('bad_option', `MAUVE needs at least 2 kept pairs, got ${preds.length}`);
    const r = await mauve(preds, refs, m.featurizer ?? new HashingFeaturizer(), m.options);
    const sig: PyDict = new Map(Object.entries(r.signature).map(([k, v]) => [k, k === 'explained_variance' ? pyFloat(v as number) : (v as PyJson)]));
    summary.set(
      'mauve',
      new Map<string, PyJson>([
        ['mauve', pyFloat(r.mauve)],
        ['mauve_star', pyFloat(r.mauveStar)],
        ['frontier_integral', pyFloat(r.frontierIntegral)],
        ['p', 'predictions'],
        ['q', 'references'],
        ['signature', sig],
      ]),
    );
  }
  const name = o.name ?? datasetName(o.pred);
  const outDir = o.outDir ?? dirname(o.pred);
  const scoredPath = join(outDir, `${name}_scored.jsonl`);
  const summaryPath = join(outDir, 'eval_summary.json');
  writeFileAtomic(scoredPath, formatJsonl(result.rows));
  // Merge: other datasets already in eval_summary.json stay (the reference writes them all at once).
  let all: PyDict = new Map();
  if (existsSync(summaryPath)) {
    const prev = pyJsonLoads(readFileSync(summaryPath, 'utf8'));
    if (prev instanceof Map) all = prev as PyDict;
  }
  all.set(name, summary);
  writeFileAtomic(summaryPath, pyJsonDumps(all, { indent: 2 }));
  return { name, scoredPath, summaryPath, summary, rows: result.rows };
}

function diversitySummary(preds: string[], refs: string[]): PyDict {
  const side = (texts: string[]): PyDict => {
    const sb = selfBleu(texts);
    const d1 = distinctN(texts, 1);
    const d2 = distinctN(texts, 2);
    return new Map<string, PyJson>([
      ['self_bleu_3', pyFloat(sb.value)],
      ['distinct_1', pyFloat(d1.value)],
      ['distinct_2', pyFloat(d2.value)],
      [
        'variants',
        new Map<string, PyJson>([
          ['self_bleu_3', sb.variant],
          ['distinct_1', d1.variant],
          ['distinct_2', d2.variant],
        ]),
      ],
    ]);
  };
  return new Map<string, PyJson>([
    ['prediction', side(preds)],
    ['reference', side(refs)],
  ]);
}
