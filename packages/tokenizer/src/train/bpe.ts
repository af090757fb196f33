// Byte-level BPE training with the semantics of the `tokenizers` BpeTrainer: special tokens get
// the first ids, then the 256 byte-level characters in code-point order, then one token per merge.
// Each step merges the most frequent adjacent pair (ties: smallest ids), updating pair counts
// incrementally in only the words that contain the pair.
import { BYTE_LEVEL_ALPHABET, toByteLevel } from '../bytelevel.js';
import { TokenizerError } from '../errors.js';
import { DEFAULT_SPECIAL_TOKENS } from '../special.js';
import { MergeHeap } from './heap.js';

// Pair keys pack (left, right) into one safe integer; ids stay below 2^21.
const PAIR_BASE = 2 ** 21;

export interface BpeTrainOptions {
  /** Final vocabulary size, special tokens and the 256 byte symbols included. */
  vocabSize: number;
  /** Tokens given the first ids (default: endoftext, im_start, im_end, mask, pad). */
  specialTokens?: readonly string[];
  /** Pairs seen fewer times are never merged (default 0, as in `tokenizers`). */
  minFrequency?: number;
  /** Called every `progressEvery` merges (default 500). */
  onProgress?: (p: { merges: number; vocab: number; target: number }) => void;
  progressEvery?: number;
}

export interface TrainedBpe {
  /** Token → id; ids are 0..n-1 in creation order. */
  vocab: Map<string, number>;
  merges: [string, string][];
  specialTokens: string[];
}

export function trainBpe(wordCounts: ReadonlyMap<string, number>, opts: BpeTrainOptions): TrainedBpe {
  const specialTokens = [...(opts.specialTokens ?? DEFAULT_SPECIAL_TOKENS)];
  const minFrequency = opts.minFrequency ?? 0;
  if (!Number.isInteger(opts.vocabSize) || opts.vocabSize < 1 || opts.vocabSize >= PAIR_BASE) {
    throw new TokenizerError([{ code: 'bad_option', where: 'trainBpe', option: 'vocabSize', detail: `must be an integer in [1, ${PAIR_BASE}), got ${opts.vocabSize}` }]);
  }
  const idToToken: string[] = [];
  const tokenToId = new Map<string, number>();
  const addToken = (t: string): number => {
    let id = tokenToId.get(t);
    if (id === undefined) {
      id = idToToken.length;
      idToToken.push(t);
      tokenToId.set(t, id);
    }
    return id;
  };
  specialTokens.forEach(addToken);
  BYTE_LEVEL_ALPHABET.forEach(addToken);

  // Words as arrays of symbol ids, with their corpus counts.
  const words: number[][] = [];
  const counts: number[] = [];
  for (const [raw, count] of wordCounts) {
    const bl = toByteLevel(raw);
    const symbols = new Array<number>(bl.length);
    for (let i = 0; i < bl.length; i++) symbols[i] = tokenToId.get(bl[i]!)!;
    words.push(symbols);
    counts.push(count);
  }

  const pairCounts = new Map<number, number>();
  const pairWhere = new Map<number, Set<number>>();
  const bump = (key: number, delta: number, word: number) => {
    pairCounts.set(key, (pairCounts.get(key) ?? 0) + delta);
    if (delta > 0) {
      let where = pairWhere.get(key);
      if (!where) pairWhere.set(key, (where = new Set()));
      where.add(word);
    }
  };
  for (let w = 0; w < words.length; w++) {
    const s = words[w]!;
    for (let i = 0; i + 1 < s.length; i++) bump(s[i]! * PAIR_BASE + s[i + 1]!, counts[w]!, w);
  }
  const heap = new MergeHeap();
  for (const [key, count] of pairCounts) if (count > 0) heap.push({ count, key });

  const merges: [string, string][] = [];
  const every = opts.progressEvery ?? 500;
  while (idToToken.length < opts.vocabSize) {
    const top = heap.pop();
    if (!top) break;
    const current = pairCounts.get(top.key) ?? 0;
    if (top.count !== current) {
      // Stale entry: counts only fall for existing pairs, so re-queue with the true count.
      if (current > 0) heap.push({ count: current, key: top.key });
      continue;
    }
    if (current < 1 || current < minFrequency) break;
    const a = Math.floor(top.key / PAIR_BASE);
    const b = top.key % PAIR_BASE;
    const left = idToToken[a]!;
    const right = idToToken[b]!;
    const merged = addToken(left + right);
    merges.push([left, right]);

    const where = pairWhere.get(top.key);
    pairWhere.delete(top.key);
    const touched = new Set<number>();
    for (const w of where ?? []) {
      const s = words[w]!;
      const c = counts[w]!;
      for (let i = 0; i + 1 < s.length; i++) {
        if (s[i] !== a || s[i + 1] !== b) continue;
        if (i > 0) {
          const prev = s[i - 1]!;
          bump(prev * PAIR_BASE + a, -c, w);
          bump(prev * PAIR_BASE + merged, c, w);
          touched.add(prev * PAIR_BASE + merged);
        }
        s.splice(i, 2, merged);
        if (i + 1 < s.length) {
          const next = s[i + 1]!;
          bump(b * PAIR_BASE + next, -c, w);
          bump(merged * PAIR_BASE + next, c, w);
          touched.add(merged * PAIR_BASE + next);
        }
      }
    }
    for (const key of touched) {
      const count = pairCounts.get(key) ?? 0;
      if (count > 0) heap.push({ count, key });
    }
    if (opts.onProgress && merges.length % every === 0) {
      opts.onProgress({ merges: merges.length, vocab: idToToken.length, target: opts.vocabSize });
    }
  }
  return { vocab: tokenToId, merges, specialTokens };
}
