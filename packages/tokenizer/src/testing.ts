// Paths of the committed fixtures, shared by this package's tests and benchmarks.
import { fileURLToPath } from 'node:url';

export const TEST_DATA = fileURLToPath(new URL('../../../test-data/', import.meta.url));
export const CORPUS_PATH = `${TEST_DATA}tokenizer/corpus.txt`;
export const HELDOUT_PATH = `${TEST_DATA}tokenizer/heldout.json`;
export const OURS_PATH = `${TEST_DATA}tokenizer/ours.tokenizer.json`;
export const GOLDEN_DIR = `${TEST_DATA}golden/tokenizer_train/`;
/** Vocabulary size of the golden tokenizers (ours and Python's). */
export const GOLDEN_VOCAB_SIZE = 1024;

/** SentencePiece's word boundary mark, ▁. */
export const META = '\u2581';

/** A Llama-2 / Mistral-shaped tokenizer.json: <unk> <s> </s> (+ controls), the 256 byte tokens, ▁, letters and punctuation; merges as given. */
export function sentencepieceJson(opts: { normalizer?: unknown; preTokenizer?: unknown; decoder: unknown; merges?: [string, string][]; template?: boolean; controls?: string[] }): unknown {
  const vocab: Record<string, number> = { '<unk>': 0, '<s>': 1, '</s>': 2 };
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = 3 + b;
  for (const c of opts.controls ?? []) vocab[c] = Object.keys(vocab).length;
  for (const c of [META, ...'abcdefghijklmnopqrstuvwxyzAHWIT0123456789.?+']) vocab[c] = Object.keys(vocab).length;
  for (const [a, b] of opts.merges ?? []) vocab[a + b] ??= Object.keys(vocab).length;
  const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '<unk>'), special(1, '<s>'), special(2, '</s>'), ...(opts.controls ?? []).map((c) => special(vocab[c]!, c))],
    normalizer: opts.normalizer ?? null,
    pre_tokenizer: opts.preTokenizer ?? null,
    post_processor: opts.template
      ? {
          type: 'TemplateProcessing',
          single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
          pair: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
          special_tokens: { '<s>': { id: '<s>', ids: [1], tokens: ['<s>'] } },
        }
      : null,
    decoder: opts.decoder,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: '<unk>',
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: true,
      byte_fallback: true,
      ignore_merges: false,
      vocab,
      merges: opts.merges ?? [],
    },
  };
}
