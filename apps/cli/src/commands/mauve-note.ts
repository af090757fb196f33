// How the CLI prints MAUVE: on a line of its own, never beside exact match, with what it was computed
// over. MAUVE compares histograms of k-means buckets (one bucket per ten rows), so over a few dozen
// rows of hashed n-grams it sits near 1 whatever the model; it is a rough figure there.
import type { PyDict } from '@diffworld/eval';

/** Rows per side below which the CLI calls MAUVE rough (the MAUVE authors use thousands of texts per side). */
export const MAUVE_ROUGH_BELOW_ROWS = 1000;

/** "MAUVE 0.9700 over 82 predictions vs 82 references (64-dim hashed n-grams, 8 buckets); rough: …" from a summary's `mauve` entry. */
export function mauveLine(mauve: PyDict): string {
  const sig = mauve.get('signature') as PyDict | undefined;
  const count = (key: string) => Number(sig?.get(key) ?? 0);
  const featurizer = String(sig?.get('featurizer') ?? 'unknown features');
  const features = featurizer.startsWith('hashing') ? `${count('dims')}-dim hashed n-grams` : featurizer;
  const what = `${Number(mauve.get('mauve')).toFixed(4)} over ${count('n_p')} predictions vs ${count('n_q')} references (${features}, ${count('buckets')} buckets)`;
  const rough = Math.min(count('n_p'), count('n_q')) < MAUVE_ROUGH_BELOW_ROWS;
  return rough
    ? `MAUVE ${what}; rough: fewer than ${MAUVE_ROUGH_BELOW_ROWS.toLocaleString('en-US')} rows, not a headline figure (nor the paper's GPT-2-feature MAUVE)`
    : `MAUVE ${what}; not the paper's GPT-2-feature MAUVE`;
}
