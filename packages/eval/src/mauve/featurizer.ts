// Featurizers turn texts into the vectors MAUVE quantises. The reference uses GPT-2-large's last
// hidden state at the last token; no such model ships here, so the default is a deterministic
// hashed n-gram embedding. Its id is recorded with every score: MAUVE values are comparable only
// under one featurizer (and never with published GPT-2-large numbers).
import { pySplit } from '../pystr.js';

export interface Featurizer {
  /** Stable identifier, recorded with every score (include every setting that changes vectors). */
  readonly id: string;
  readonly dims: number;
  featurize(texts: readonly string[]): Promise<Float64Array[]> | Float64Array[];
}

export interface HashingFeaturizerOptions {
  dims?: number; // default 64
  maxChars?: number; // texts are cut to this many UTF-16 units first (default 4096)
}

/**
 * The default featurizer: signed feature hashing (FNV-1a, 32-bit) of lower-cased word unigrams,
 * word bigrams and character trigrams into `dims` buckets, sublinear term frequency
 * (sign·log(1+|v|)), L2-normalised. Cheap, deterministic, sensitive to wording and format; blind to
 * meaning beyond shared n-grams.
 */
export class HashingFeaturizer implements Featurizer {
  readonly dims: number;
  readonly maxChars: number;
  readonly id: string;

  constructor(options: HashingFeaturizerOptions = {}) {
    this.dims = options.dims ?? 64;
    this.maxChars = options.maxChars ?? 4096;
    this.id = `hashing-v1(dims=${this.dims},word1+word2+char3,fnv1a-signed,log1p-tf,l2,max_chars=${this.maxChars})`;
  }

  featurize(texts: readonly string[]): Float64Array[] {
    return texts.map((t) => this.one(t));
  }

  private one(text: string): Float64Array {
    const v = new Float64Array(this.dims);
    const lower = text.slice(0, this.maxChars).toLowerCase();
    const add = (feature: string): void => {
      const h = fnv1a(feature);
      v[h % this.dims]! += h & 0x80000000 ? -1 : 1;
    };
    const words = pySplit(lower);
    for (let i = 0; i < words.length; i++) {
      add('w\u0001' + words[i]);
      if (i + 1 < words.length) add('b\u0001' + words[i] + ' ' + words[i + 1]);
    }
    const padded = ` ${lower} `;
    for (let i = 0; i + 3 <= padded.length; i++) add('c\u0001' + padded.slice(i, i + 3));
    let norm = 0;
    for (let j = 0; j < this.dims; j++) {
      const x = v[j]!;
      v[j] = Math.sign(x) * Math.log1p(Math.abs(x));
      norm += v[j]! * v[j]!;
    }
    if (norm > 0) for (let j = 0; j < this.dims; j++) v[j]! /= Math.sqrt(norm);
    return v;
  }
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
