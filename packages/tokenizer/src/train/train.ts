// Training entry points: count words over any text source, run BPE, build tokenizer.json.
import { chatTrainingTexts, type ChatTemplateOptions } from '../chat.js';
import { readRows } from '@diffworld/dataset';
import { readLinesKeepEnds } from '../corpus.js';
import { QWEN_SPLIT_PATTERN } from '../pretokenize.js';
import type { TokenizerJson } from '../validate.js';
import { trainBpe, type BpeTrainOptions } from './bpe.js';
import { WordCounter } from './count.js';
import { buildTokenizerJson } from './write.js';

export interface TrainTokenizerOptions extends BpeTrainOptions {
  /** Split regex (Oniguruma syntax, as stored in tokenizer.json); default Qwen2's. */
  pattern?: string;
}

export interface TrainStats {
  chars: number;
  uniqueWords: number;
  merges: number;
  vocabSize: number;
  countSeconds: number;
  mergeSeconds: number;
}

export interface TrainResult {
  json: TokenizerJson;
  stats: TrainStats;
}

/** Trains from in-memory sequences (each one is pre-tokenized on its own, like `train_from_iterator`). */
export async function trainTokenizer(texts: Iterable<string> | AsyncIterable<string>, opts: TrainTokenizerOptions): Promise<TrainResult> {
  const counter = new WordCounter(opts.pattern ?? QWEN_SPLIT_PATTERN);
  const t0 = performance.now();
  for await (const t of texts) counter.add(t);
  return finish(counter, opts, t0);
}

/** True for corpus files of chat rows (read by @diffworld/dataset); anything else is plain text. */
export function isChatFile(path: string): boolean {
  return /\.(jsonl|ndjson|parquet)$/i.test(path);
}

/** Trains from files: .jsonl/.parquet chat rows (message segments) or text files (lines). */
export async function trainTokenizerFromFiles(paths: readonly string[], opts: TrainTokenizerOptions & { chat?: ChatTemplateOptions }): Promise<TrainResult> {
  const counter = new WordCounter(opts.pattern ?? QWEN_SPLIT_PATTERN);
  const t0 = performance.now();
  for (const path of paths) {
    if (isChatFile(path)) {
      for await (const row of readRows(path)) for (const t of chatTrainingTexts(row.messages, opts.chat)) counter.add(t);
    } else {
      for await (const line of readLinesKeepEnds(path)) counter.add(line);
    }
  }
  return finish(counter, opts, t0);
}

function finish(counter: WordCounter, opts: TrainTokenizerOptions, t0: number): TrainResult {
  const t1 = performance.now();
  const trained = trainBpe(counter.counts, opts);
  const t2 = performance.now();
  return {
    json: buildTokenizerJson(trained, counter.pattern),
    stats: {
      chars: counter.charsSeen,
      uniqueWords: counter.counts.size,
      merges: trained.merges.length,
      vocabSize: trained.vocab.size,
      countSeconds: (t1 - t0) / 1000,
      mergeSeconds: (t2 - t1) / 1000,
    },
  };
}
