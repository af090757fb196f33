// The library's type declarations re-export its pre-tokenizers through extensionless paths that
// NodeNext resolution cannot follow, so the two classes we need are typed here by hand.
import * as hf from '@huggingface/tokenizers';

interface SplitConfig {
  type: 'Split';
  pattern: { Regex: string } | { String: string };
  behavior: 'Isolated';
  invert: boolean;
}
interface ByteLevelConfig {
  type: 'ByteLevel';
  add_prefix_space: boolean;
  use_regex: boolean;
}
interface PreTokenizerWithPattern {
  pattern: RegExp | null;
}

const exported: Record<string, unknown> = { ...hf };

export const SplitPreTokenizer = exported['SplitPreTokenizer'] as new (config: SplitConfig) => PreTokenizerWithPattern;
export const ByteLevelPreTokenizer = exported['ByteLevelPreTokenizer'] as new (config: ByteLevelConfig) => PreTokenizerWithPattern;
