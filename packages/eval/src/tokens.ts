// Word tokenisers for the diversity metrics, named so that every output can say which one it used.
import { tokenize13a } from './bleu.js';
import { pySplit } from './pystr.js';

export type WordTokenizer = 'whitespace' | '13a';

export function wordTokens(text: string, tokenizer: WordTokenizer): string[] {
  return tokenizer === '13a' ? pySplit(tokenize13a(text)) : pySplit(text);
}

/** n-grams as space-joined keys (tokens never contain whitespace, so the join is unambiguous). */
export function ngramKeys(tokens: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(n === 1 ? tokens[i]! : tokens.slice(i, i + n).join(' '));
  return out;
}
