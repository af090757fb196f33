// Diversity of a set of generations: Self-BLEU (Texygen) and Distinct-N (Li et al. 2016), each with
// its variant written into the result so that numbers are only compared under one definition.
import { ngramKeys, wordTokens, type WordTokenizer } from './tokens.js';
import { EvalError } from './errors.js';

export interface SelfBleuOptions {
  /** BLEU order n; weights are (1/n, …, 1/n) (default 3, Texygen's constructor default). */
  n?: number;
  /** Texygen `is_fast` keeps only the first 500 texts, as hypotheses and as references. */
  sampleSize?: number | 'all';
  tokenizer?: WordTokenizer; // default '13a' (stands in for nltk.word_tokenize, which is not ported)
}

export interface SelfBleuResult {
  value: number; // 0–1, mean over hypotheses; higher = less diverse
  n: number;
  count: number;
  variant: string;
}

/**
 * Self-BLEU: each text is scored by NLTK `sentence_bleu` against all *other* texts, smoothing
 * method1 (ε = 0.1), closest reference length; the mean over texts. Reference counts are the maximum
 * over the others, kept as top-2 per n-gram so excluding oneself costs O(1) (no O(N²) loop).
 */
export function selfBleu(texts: readonly string[], options: SelfBleuOptions = {}): SelfBleuResult {
  const n = options.n ?? 3;
  if (!Number.isInteger(n) || n < 1) throw new EvalError('bad_option', `Self-BLEU order must be a positive integer, got ${n}`);
  const size = options.sampleSize ?? 500;
  const tokenizer = options.tokenizer ?? '13a';
  const sample = size === 'all' ? texts : texts.slice(0, size);
  const variant = `self-bleu-${n}|tok:${tokenizer}|smooth:nltk-method1|refs:others|sample:${size === 'all' ? 'all' : `first-${size}`}`;
  if (sample.length < 2) return { value: 0, n, count: sample.length, variant };
  const toks = sample.map((t) => wordTokens(t, tokenizer));

  // Per order: per-text counts, and over all texts the top count (with its owner) and the runner-up.
  const perText: Map<string, number>[][] = [];
  const top: Map<string, { c1: number; owner: number; c2: number }>[] = [];
  for (let k = 1; k <= n; k++) {
    const tops = new Map<string, { c1: number; owner: number; c2: number }>();
    const counts = toks.map((t, idx) => {
      const m = new Map<string, number>();
      for (const g of ngramKeys(t, k)) m.set(g, (m.get(g) ?? 0) + 1);
      for (const [g, c] of m) {
        const e = tops.get(g);
        if (!e) tops.set(g, { c1: c, owner: idx, c2: 0 });
        else if (c > e.c1) {
          e.c2 = e.c1;
          e.c1 = c;
          e.owner = idx;
        } else if (c > e.c2) e.c2 = c;
      }
      return m;
    });
    perText.push(counts);
    top.push(tops);
  }
  const lengthCount = new Map<number, number>();
  for (const t of toks) lengthCount.set(t.length, (lengthCount.get(t.length) ?? 0) + 1);
  const lengths = [...lengthCount.keys()].sort((a, b) => a - b);

  let sum = 0;
  for (let i = 0; i < toks.length; i++) {
    const hypLen = toks[i]!.length;
    let logSum = 0;
    let zeroUnigram = false;
    for (let k = 1; k <= n; k++) {
      let num = 0;
      let total = 0;
      for (const [g, c] of perText[k - 1]![i]!) {
        const e = top[k - 1]!.get(g)!;
        num += Math.min(c, e.owner === i ? e.c2 : e.c1);
        total += c;
      }
      const den = Math.max(1, total);
      if (k === 1 && num === 0) zeroUnigram = true;
      logSum += Math.log(num === 0 ? 0.1 / den : num / den) / n;
    }
    if (zeroUnigram) continue; // NLTK returns 0 when no unigram matches
    const refLen = closestOtherLength(hypLen, lengthCount, lengths);
    const bp = hypLen > refLen ? 1 : hypLen === 0 ? 0 : Math.exp(1 - refLen / hypLen);
    sum += bp * Math.exp(logSum);
  }
  return { value: sum / toks.length, n, count: toks.length, variant };
}

// Closest length among the other texts (the hypothesis's own length occurs once in the counts).
function closestOtherLength(len: number, counts: Map<number, number>, sorted: readonly number[]): number {
  if ((counts.get(len) ?? 0) >= 2) return len;
  let below = -1;
  let above = -1;
  for (const l of sorted) {
    if (l < len) below = l;
    else if (l > len) {
      above = l;
      break;
    }
  }
  if (below < 0) return above;
  if (above < 0) return below;
  return len - below <= above - len ? below : above;
}

export type DistinctVariant = 'corpus-pooled' | 'sentence-avg';

export interface DistinctResult {
  value: number;
  n: number;
  unique: number;
  total: number;
  variant: string;
}

/**
 * Distinct-N. 'corpus-pooled' (default): |unique n-grams over all texts| / |all n-grams|, 0 when there
 * are none. 'sentence-avg': mean over texts of |set(n-grams)| / |tokens| (neural-dialogue-metrics).
 */
export function distinctN(texts: readonly string[], n: number, options: { variant?: DistinctVariant; tokenizer?: WordTokenizer } = {}): DistinctResult {
  if (!Number.isInteger(n) || n < 1) throw new EvalError('bad_option', `Distinct-N order must be a positive integer, got ${n}`);
  const v = options.variant ?? 'corpus-pooled';
  const tokenizer = options.tokenizer ?? 'whitespace';
  const variant = `distinct-${n}|${v}|tok:${tokenizer}`;
  const unique = new Set<string>();
  let total = 0;
  let avg = 0;
  for (const t of texts) {
    const toks = wordTokens(t, tokenizer);
    const grams = ngramKeys(toks, n);
    total += grams.length;
    for (const g of grams) unique.add(g);
    if (v === 'sentence-avg' && toks.length > 0) avg += new Set(grams).size / toks.length;
  }
  const value = v === 'corpus-pooled' ? (total === 0 ? 0 : unique.size / total) : texts.length === 0 ? 0 : avg / texts.length;
  return { value, n, unique: unique.size, total, variant };
}
