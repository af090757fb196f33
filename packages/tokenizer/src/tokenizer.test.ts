import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededUniform } from './synthetic.js';
import { CORPUS_PATH, OURS_PATH } from './testing.js';
import { Tokenizer } from './tokenizer.js';

const tok = Tokenizer.load(OURS_PATH);

/** Random Unicode text from a seeded generator: every plane, whitespace, specials, ZWJ sequences. */
function randomText(rng: () => number): string {
  const pools: Array<() => string> = [
    () => String.fromCodePoint(0x20 + Math.floor(rng() * 95)), // ASCII
    () => [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\u0085', '\u2028', '\ufeff'][Math.floor(rng() * 10)]!,
    () => String.fromCodePoint(0x4e00 + Math.floor(rng() * 0x5000)), // CJK
    () => String.fromCodePoint(0x1f300 + Math.floor(rng() * 0x700)), // emoji
    () => '\u200d',
    () => String.fromCodePoint(0x300 + Math.floor(rng() * 0x70)), // combining marks
    () => {
      // any scalar value outside the surrogate range
      let cp = Math.floor(rng() * 0x110000);
      if (cp >= 0xd800 && cp <= 0xdfff) cp -= 0x800;
      return String.fromCodePoint(cp);
    },
    () => ['<|im_start|>', '<|im_end|>', '<|mask|>', '<|pad|>', '<|endoftext|>', '<|', '|>'][Math.floor(rng() * 7)]!,
    () => "'s",
  ];
  let s = '';
  const n = Math.floor(rng() * 40);
  for (let i = 0; i < n; i++) s += pools[Math.floor(rng() * pools.length)]!();
  return s;
}

describe('Tokenizer', () => {
  it('decode(encode(x)) == x for arbitrary Unicode (seeded property test)', () => {
    const rng = seededUniform(12345);
    for (let i = 0; i < 2000; i++) {
      const s = randomText(rng);
      const e = tok.encode(s);
      expect(tok.decode(e.ids), JSON.stringify(s)).toBe(s);
      // Offsets tile the text: each token's source, joined, is the text (multi-byte pieces repeat).
      expect(e.offsets, JSON.stringify(s)).not.toBeNull();
      let end = 0;
      let gaps = 0;
      for (const [a, b] of e.offsets!) {
        if (a > b || a > end) gaps++;
        end = Math.max(end, b);
      }
      expect({ gaps, end }, JSON.stringify(s)).toEqual({ gaps: 0, end: s.length });
    }
  });

  it('gives UTF-16 offsets; a token inside a character spans that character', () => {
    const s = 'go 𓀀𓀁 <|im_end|>x';
    const e = tok.encode(s);
    const fatal = new TextDecoder('utf-8', { fatal: true });
    e.tokens.forEach((t, i) => {
      const [a, b] = e.offsets![i]!;
      let whole: string | undefined;
      try {
        whole = tok.decode([e.ids[i]!]);
        fatal.decode(new TextEncoder().encode(whole));
        if (whole.includes('\ufffd')) whole = undefined;
      } catch {
        whole = undefined;
      }
      // Whole-character tokens map to exactly their text; partial ones to the characters they touch.
      if (whole !== undefined) expect(s.slice(a, b)).toBe(whole);
      else expect(['𓀀', '𓀁', '𓀀𓀁']).toContain(s.slice(a, b));
    });
    expect(e.offsets!.at(-2)).toEqual([s.indexOf('<|im_end|>'), s.indexOf('<|im_end|>') + 10]);
  });

  it('splits special tokens out of text and skips them on request', () => {
    const e = tok.encode('<|im_start|>user\nhi<|im_end|>');
    expect(e.ids[0]).toBe(tok.requireId('<|im_start|>'));
    expect(e.ids.at(-1)).toBe(tok.requireId('<|im_end|>'));
    expect(tok.decode(e.ids, { skipSpecialTokens: true })).toBe('user\nhi');
    expect(tok.isSpecial(e.ids[0]!)).toBe(true);
    expect(tok.decode([])).toBe('');
  });

  it('rejects ids outside the vocabulary with the index', () => {
    expect(() => tok.decode([1, tok.vocabSize + 5])).toThrow(/option `ids\[1\]` is \d+, not an id of this tokenizer/);
    expect(() => tok.requireId('<|nope|>')).toThrow(/token "<\|nope\|>" is not in the vocabulary/);
  });

  it('batch-encodes with right/left truncation and padding', () => {
    const texts = ['one two three four five six', 'hi'];
    const full = texts.map((t) => tok.encodeIds(t));
    const right = tok.encodeBatch(texts, { maxLength: 3, padding: 'longest' });
    expect(right.ids[0]).toEqual(full[0]!.slice(0, 3));
    expect(right.lengths).toEqual([3, full[1]!.length]);
    const pad = tok.padId!;
    expect(right.ids[1]).toEqual([...full[1]!, ...Array(3 - full[1]!.length).fill(pad)]);
    expect(right.attentionMask[1]).toEqual([...full[1]!.map(() => 1), ...Array(3 - full[1]!.length).fill(0)]);

    const left = tok.encodeBatch(texts, { maxLength: 4, truncation: 'left', padding: 'max_length', padSide: 'left', padToMultipleOf: 8 });
    expect(left.ids[0]).toEqual([...Array(4).fill(pad), ...full[0]!.slice(-4)]);
    expect(left.ids[1]!.length).toBe(8);
    expect(left.attentionMask[1]!.slice(0, 8 - full[1]!.length).every((m) => m === 0)).toBe(true);

    const ragged = tok.encodeBatch(texts);
    expect(ragged.ids).toEqual(full);
    expect(() => tok.encodeBatch(texts, { padding: 'max_length' })).toThrow(/"max_length" needs maxLength/);
    expect(() => tok.encodeBatch(texts, { maxLength: 0 })).toThrow(/maxLength` must be a positive integer/);
  });
});

describe('fast byte-level BPE path', () => {
  const lib = Tokenizer.load(OURS_PATH, { fast: false });
  const gpt2Style = Tokenizer.fromJson({
    ...lib.json,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    model: { ...lib.json.model, ignore_merges: true },
  });
  const gpt2Lib = Tokenizer.fromJson(gpt2Style.json, 'gpt2-style', { fast: false });

  it('is used for our layout and encodes exactly like @huggingface/tokenizers', () => {
    expect(tok.usesFastPath).toBe(true);
    expect(lib.usesFastPath).toBe(false);
    expect(gpt2Style.usesFastPath).toBe(true);
    const rng = seededUniform(777);
    for (let i = 0; i < 800; i++) {
      const s = randomText(rng);
      expect(tok.encodeIds(s), JSON.stringify(s)).toEqual(lib.encodeIds(s));
      expect(gpt2Style.encodeIds(s), JSON.stringify(s)).toEqual(gpt2Lib.encodeIds(s));
    }
    const corpus = readFileSync(CORPUS_PATH, 'utf8').slice(0, 40_000);
    expect(tok.encode(corpus)).toEqual(lib.encode(corpus));
  });

  it('is not used for layouts it does not implement', () => {
    const withNormalizer = Tokenizer.fromJson({ ...lib.json, normalizer: { type: 'NFC' } });
    expect(withNormalizer.usesFastPath).toBe(false);
    const template = Tokenizer.fromJson({ ...lib.json, post_processor: { type: 'TemplateProcessing', single: [{ Sequence: { id: 'A', type_id: 0 } }], special_tokens: {} } });
    expect(template.usesFastPath).toBe(false);
  });
});
