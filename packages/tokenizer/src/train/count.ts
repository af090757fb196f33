// Word-frequency counting: the corpus is reduced to unique pre-tokens with counts before any
// merging, so BPE work scales with the vocabulary of words, not with corpus size.
import { compileSplitPattern, forEachPiece, QWEN_SPLIT_PATTERN } from '../pretokenize.js';

export class WordCounter {
  /** Pre-token (raw text, not yet byte-level) → occurrences. */
  readonly counts = new Map<string, number>();
  private readonly regex: RegExp;
  /** UTF-16 units seen, for progress and benchmarks. */
  charsSeen = 0;

  constructor(readonly pattern: string = QWEN_SPLIT_PATTERN) {
    this.regex = compileSplitPattern(pattern);
  }

  /** Counts the pre-tokens of one training sequence (a line, a message, a document). */
  add(text: string): void {
    this.charsSeen += text.length;
    const counts = this.counts;
    forEachPiece(text, this.regex, (piece) => counts.set(piece, (counts.get(piece) ?? 0) + 1));
  }

  /** Adds another counter's counts (e.g. from a worker). */
  merge(other: ReadonlyMap<string, number>): void {
    for (const [w, c] of other) this.counts.set(w, (this.counts.get(w) ?? 0) + c);
  }
}
