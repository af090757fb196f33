// Turns a trained BPE into a tokenizer.json in the layout the Python `tokenizers` library writes
// (Qwen2-style: Split regex + ByteLevel pre-tokenizer, ByteLevel decoder, no normalizer so that
// decode(encode(x)) == x), readable by @huggingface/tokenizers and by Python.
import { writeFileAtomic } from '@diffworld/dataset';
import { QWEN_SPLIT_PATTERN } from '../pretokenize.js';
import type { TokenizerJson } from '../validate.js';
import type { TrainedBpe } from './bpe.js';

const BYTE_LEVEL = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false } as const;

export function buildTokenizerJson(trained: TrainedBpe, pattern: string = QWEN_SPLIT_PATTERN): TokenizerJson {
  const vocab: Record<string, number> = {};
  for (const [token, id] of [...trained.vocab].sort((x, y) => x[1] - y[1])) vocab[token] = id;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: trained.specialTokens.map((content) => ({
      id: trained.vocab.get(content)!,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [{ type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false }, { ...BYTE_LEVEL }],
    },
    post_processor: { ...BYTE_LEVEL },
    decoder: { ...BYTE_LEVEL },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      // "left right" strings: read by every `tokenizers` version (byte-level tokens hold no space).
      merges: trained.merges.map(([l, r]) => `${l} ${r}`),
    },
  };
}

/** Writes tokenizer.json atomically, pretty-printed like Python's `save(pretty=True)`. */
export function writeTokenizerJson(path: string, json: TokenizerJson): void {
  writeFileAtomic(path, `${JSON.stringify(json, null, 2)}\n`);
}
