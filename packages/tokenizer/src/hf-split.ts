// The library's type declarations re-export its pre-tokenizers through extensionless paths that
// NodeNext resolution cannot follow, so the one class we need is typed here by hand.
import * as hf from '@huggingface/tokenizers';

interface SplitConfig {
  type: 'Split';
  pattern: { Regex: string } | { String: string };
  behavior: 'Isolated';
  invert: boolean;
}
interface SplitPreTokenizerInstance {
  pattern: RegExp | null;
}
type SplitCtor = new (config: SplitConfig) => SplitPreTokenizerInstance;

const exported: Record<string, unknown> = { ...hf };

export const SplitPreTokenizer = exported['SplitPreTokenizer'] as SplitCtor;
