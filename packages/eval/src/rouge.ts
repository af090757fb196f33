// ROUGE-L in two flavours, never mixed up in outputs:
// - `rougeLPltrdy`: PyPI `rouge` 1.0.1 (pltrdy) `Rouge().get_scores(pred or " ", ref or " ")[0]["rouge-l"]`,
//   the number the reference evaluators report. Summary-level LCS over sentences split on every ".",
//   tokens split on " ", case-sensitive, unique-token sets, F = 2PR/(P+R+1e-8).
// - `rougeLScore`: Google `rouge-score` `RougeScorer(['rougeL']).score(ref, pred)` without stemming.
import { pySplit } from './pystr.js';

export interface RougeScore {
  f: number;
  p: number;
  r: number;
}

export interface PltrdyOptions {
  /**
   * The reference's Python raises RecursionError (caught, scored 0.0) when the recursive LCS backtrack
   * is too deep. CPython 3.11's default limit is 1000 frames; `callerDepth` frames are already on the
   * stack when the backtrack starts (10 for `python sdar/evaluate.py`: <module>, main, score_file,
   * compute_metrics, get_scores, _get_scores, the metric lambda, rouge_l_summary_level, _union_lcs,
   * _recon_lcs). Set `recursionLimit: Infinity` to get the mathematically intended score instead.
   */
  recursionLimit?: number;
  callerDepth?: number;
}

/** The sentences pltrdy's `Rouge._get_scores` makes of a text (None when rouge would raise). */
export function pltrdySentences(text: string): string[][] {
  return text
    .split('.')
    .filter((s) => s.length > 0)
    .map((s) => {
      const words = pySplit(s);
      return words.length === 0 ? [''] : words; // " ".join([]) is "", and "".split(" ") is [""]
    });
}

/**
 * ROUGE-L F/P/R exactly as the reference evaluators get it from PyPI `rouge`; the evaluator's
 * `except Exception: 0.0` is folded in (empty sentence lists and RecursionError give zeros).
 */
export function rougeLPltrdy(prediction: string, reference: string, options: PltrdyOptions = {}): RougeScore {
  const limit = options.recursionLimit ?? 1000;
  const callerDepth = options.callerDepth ?? 10;
  const hyp = pltrdySentences(prediction || ' ');
  const ref = pltrdySentences(reference || ' ');
  if (hyp.length === 0 || ref.length === 0) return { f: 0, p: 0, r: 0 };
  const m = new Set(ref.flat()).size;
  const n = new Set(hyp.flat()).size;
  const union = new Set<string>();
  for (const refWords of ref) {
    for (const hypWords of hyp) {
      // The backtrack takes at least min(|x|, |y|) steps: skip the table when it must overflow.
      if (callerDepth + Math.min(refWords.length, hypWords.length) + 1 > limit) return { f: 0, p: 0, r: 0 };
      const lcs = reconLcs(refWords, hypWords);
      // Frames: the caller's, one per backtrack step, and the final call that returns [].
      if (callerDepth + lcs.steps + 1 > limit) return { f: 0, p: 0, r: 0 };
      for (const w of lcs.tokens) union.add(w);
    }
  }
  const llcs = union.size;
  const r = llcs / m;
  const p = llcs / n;
  return { f: 2 * ((p * r) / (p + r + 1e-8)), p, r };
}

// LCS table over x (reference) and y (hypothesis), then the backtrack of `_recon_lcs`: on a match take
// it; else move up when table[i-1][j] > table[i][j-1], otherwise left.
function reconLcs(x: readonly string[], y: readonly string[]): { tokens: string[]; steps: number } {
  const w = y.length + 1;
  const table = lcsTable(x, y);
  const tokens: string[] = [];
  let i = x.length;
  let j = y.length;
  let steps = 0;
  while (i > 0 && j > 0) {
    steps++;
    if (x[i - 1] === y[j - 1]) {
      tokens.push(x[i - 1]!);
      i--;
      j--;
    } else if (table[(i - 1) * w + j]! > table[i * w + j - 1]!) i--;
    else j--;
  }
  return { tokens, steps };
}

function lcsTable(x: readonly string[], y: readonly string[]): Uint32Array {
  const w = y.length + 1;
  const table = new Uint32Array((x.length + 1) * w);
  for (let i = 1; i <= x.length; i++) {
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) {
      table[i * w + j] = xi === y[j - 1] ? table[(i - 1) * w + j - 1]! + 1 : Math.max(table[(i - 1) * w + j]!, table[i * w + j - 1]!);
    }
  }
  return table;
}

// Two rows suffice when only the length is needed.
function lcsLength(x: readonly string[], y: readonly string[]): number {
  let prev = new Uint32Array(y.length + 1);
  let cur = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = xi === y[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

/** rouge-score's DefaultTokenizer without stemming: lower-case, non-[a-z0-9] to spaces, split. */
export function rougeScoreTokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(/\s+/)
    .filter((t) => /^[a-z0-9]+$/.test(t));
}

/** rouge-score `rougeL` (sentence-level LCS over its tokenizer, use_stemmer=False). */
export function rougeLScore(prediction: string, reference: string): RougeScore {
  const target = rougeScoreTokenize(reference);
  const pred = rougeScoreTokenize(prediction);
  if (target.length === 0 || pred.length === 0) return { f: 0, p: 0, r: 0 };
  const lcs = lcsLength(target, pred);
  const p = lcs / pred.length;
  const r = lcs / target.length;
  return { f: p + r > 0 ? (2 * p * r) / (p + r) : 0, p, r };
}
