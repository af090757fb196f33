// The non-byte-level pipelines on hand-made tokenizer.json files, with the results Rust `tokenizers`
// gives (worked out from its source: Metaspace split MergedWithNext, the Metaspace decoder dropping
// every ▁ of the first token, ByteFallback's one U+FFFD per invalid byte, normalizers run per
// added-token section), where @huggingface/tokenizers 0.2.0 alone differs; and a 151k-entry
// vocabulary, the size of Qwen's, loading and encoding.
import { describe, expect, it } from 'vitest';
import { BYTE_LEVEL_ALPHABET, BYTE_TO_CHAR } from './bytelevel.js';
import { splitMergedWithNext } from './hf-fixes.js';
import { syntheticText } from './synthetic.js';
import { META, sentencepieceJson } from './testing.js';
import { Tokenizer } from './tokenizer.js';

const metaspace = (prepend_scheme: string, split: boolean) => ({ type: 'Metaspace', replacement: META, prepend_scheme, split });

describe('Metaspace, byte fallback and normalizer pipelines as Rust tokenizers runs them', () => {
  it('Metaspace split=true cuts before each ▁, so no merge crosses words; split=false lets it', () => {
    const merges: [string, string][] = [['y', META]];
    const split = Tokenizer.fromJson(sentencepieceJson({ preTokenizer: metaspace('always', true), decoder: metaspace('always', true), merges }));
    expect(split.encode('Hey  you').tokens).toEqual([META, 'H', 'e', 'y', META, META, 'y', 'o', 'u']);
    const joined = Tokenizer.fromJson(sentencepieceJson({ preTokenizer: metaspace('first', false), decoder: metaspace('first', false), merges }));
    expect(joined.encode('Hey  you').tokens).toEqual([META, 'H', 'e', `y${META}`, META, 'y', 'o', 'u']);
    expect(splitMergedWithNext(`a${META}${META}b${META}`, META)).toEqual(['a', META, `${META}b`, META]);
  });

  it('the Metaspace decoder drops every ▁ of the first token unless prepend_scheme is "never"', () => {
    const merges: [string, string][] = [[META, META]];
    const always = Tokenizer.fromJson(sentencepieceJson({ preTokenizer: metaspace('always', false), decoder: metaspace('always', false), merges }));
    const ids = [always.requireId(META + META), always.requireId('a'), always.requireId(META), always.requireId('b')];
    expect(always.decode(ids)).toBe('a b');
    const never = Tokenizer.fromJson(sentencepieceJson({ preTokenizer: metaspace('never', false), decoder: metaspace('never', false), merges }));
    expect(never.decode(ids)).toBe('  a b');
    // Old files say add_prefix_space instead of prepend_scheme.
    const old = Tokenizer.fromJson(
      sentencepieceJson({ preTokenizer: { type: 'Metaspace', replacement: META, add_prefix_space: false }, decoder: { type: 'Metaspace', replacement: META, add_prefix_space: false } }),
    );
    expect(old.encode('ab c').tokens).toEqual(['a', 'b', META, 'c']);
  });

  it('byte fallback: characters outside the vocabulary as <0xNN>, invalid UTF-8 decoded as one U+FFFD per byte', () => {
    const llama2Decoder = {
      type: 'Sequence',
      decoders: [{ type: 'Replace', pattern: { String: META }, content: ' ' }, { type: 'ByteFallback' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }],
    };
    const normalizer = {
      type: 'Sequence',
      normalizers: [
        { type: 'Prepend', prepend: META },
        { type: 'Replace', pattern: { String: ' ' }, content: META },
      ],
    };
    const tok = Tokenizer.fromJson(sentencepieceJson({ normalizer, decoder: llama2Decoder, template: true }));
    const e = tok.encode('a 世');
    expect(e.tokens).toEqual(['<s>', META, 'a', META, '<0xE4>', '<0xB8>', '<0x96>']);
    expect(tok.decode(e.ids)).toBe('<s> a 世');
    expect(tok.decode(e.ids, { skipSpecialTokens: true })).toBe('a 世');
    expect(tok.decode([tok.requireId('a'), tok.requireId('<0xE4>'), tok.requireId('<0xB8>')])).toBe('a\uFFFD\uFFFD');
    // The normalizer runs on each piece between added tokens: " b" after <s> becomes "▁▁b".
    expect(tok.encode('a <s> b', { addSpecialTokens: false }).tokens).toEqual([META, 'a', META, '<s>', META, META, 'b']);
  });
});

describe('byte-level BPE with a BOS template (Llama-3, LFM2)', () => {
  it('gives the template token [0, 0] even where the text itself starts with it', () => {
    const vocab = Object.fromEntries(BYTE_LEVEL_ALPHABET.map((c, i) => [c, i]));
    const bos = '<|begin_of_text|>';
    const json = {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: [{ id: 256, content: bos, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
      normalizer: null,
      pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      post_processor: {
        type: 'Sequence',
        processors: [
          { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
          {
            type: 'TemplateProcessing',
            single: [{ SpecialToken: { id: bos, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
            pair: [{ Sequence: { id: 'A', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }],
            special_tokens: { [bos]: { id: bos, ids: [256], tokens: [bos] } },
          },
        ],
      },
      decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
      model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: true, vocab, merges: [] },
    };
    const tok = Tokenizer.fromJson(json);
    const e = tok.encode(`${bos}hi`);
    expect(e.tokens).toEqual([bos, bos, 'h', 'i']);
    expect(e.offsets).toEqual([
      [0, 0],
      [0, 17],
      [17, 18],
      [18, 19],
    ]);
    expect(tok.encode('hi', { addSpecialTokens: false }).offsets).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });
});

describe('a 151k-entry vocabulary', () => {
  it('loads and encodes (Qwen-sized, byte-level BPE with 150k merges)', () => {
    // Merges built from a seeded walk: each joins two existing tokens into a new one.
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const tokens: string[] = [...BYTE_LEVEL_ALPHABET];
    const seen = new Set(tokens);
    const merges: [string, string][] = [];
    // Letters and Ġ (the byte-level space): words such as "Ġthe" grow from them.
    const letters = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', BYTE_TO_CHAR[32]!];
    const pool = [...letters];
    while (tokens.length < 151_643) {
      const a = pool[Math.floor(rand() * pool.length)]!;
      const b = letters[Math.floor(rand() * letters.length)]!;
      const t = a + b;
      if (seen.has(t) || t.length > 12) continue;
      seen.add(t);
      tokens.push(t);
      merges.push([a, b]);
      pool.push(t);
    }
    const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
    const specials = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'].map((content, k) => ({
      id: tokens.length + k,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    }));
    const pattern = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
    const json = {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: specials,
      normalizer: { type: 'NFC' },
      pre_tokenizer: {
        type: 'Sequence',
        pretokenizers: [
          { type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false },
          { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
        ],
      },
      post_processor: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
      decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
      model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges },
    };
    const text = syntheticText(50_000, 7);
    const t0 = performance.now();
    const tok = Tokenizer.fromJson(json); // NFC: the library's path (Qwen2's layout)
    const t1 = performance.now();
    const ids = tok.encodeIds(text);
    const t2 = performance.now();
    const fast = Tokenizer.fromJson({ ...json, normalizer: null }); // the same without NFC: the fast path
    const t3 = performance.now();
    const fastIds = fast.encodeIds(text);
    const t4 = performance.now();
    expect(tok.vocabSize).toBe(151_646);
    expect(fast.usesFastPath).toBe(true);
    expect(fastIds).toEqual(ids); // the text is NFC already, so both paths must agree
    expect(tok.decode(ids)).toBe(text);
    console.log(
      `151,646-entry vocabulary: ${text.length} chars → ${ids.length} tokens; library path load ${(t1 - t0).toFixed(0)} ms, encode ${(t2 - t1).toFixed(0)} ms; fast path load ${(t3 - t2).toFixed(0)} ms, encode ${(t4 - t3).toFixed(0)} ms`,
    );
  }, 120_000);
});
