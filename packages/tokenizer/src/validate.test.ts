import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TokenizerError } from './errors.js';
import { Tokenizer } from './tokenizer.js';
import { validateTokenizerJson } from './validate.js';

function minimal(): Record<string, unknown> {
  return {
    added_tokens: [{ id: 3, content: '<|im_end|>', special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel' },
    model: { type: 'BPE', vocab: { a: 0, b: 1, ab: 2 }, merges: ['a b'], ignore_merges: false },
  };
}

function messageOf(raw: unknown): string {
  try {
    Tokenizer.fromJson(raw, 'x/tokenizer.json');
  } catch (e) {
    expect(e).toBeInstanceOf(TokenizerError);
    return (e as Error).message.split('\n')[0]!;
  }
  throw new Error('expected a TokenizerError');
}

describe('validateTokenizerJson', () => {
  it('accepts a minimal BPE file and fills omitted components with null', () => {
    const raw = minimal();
    delete raw['post_processor'];
    const r = validateTokenizerJson(raw);
    expect(r.ok && r.value.post_processor).toBe(null);
    expect(Tokenizer.fromJson(minimal()).encode('ab').ids).toEqual([2]);
  });

  it('names the field that is wrong', () => {
    const cases: Array<[(j: Record<string, any>) => void, string]> = [
      [(j) => delete j['model'], '`model` must be an object'],
      [(j) => (j['model'].vocab = [1, 2]), '`model.vocab` must be an object mapping token → id'],
      [(j) => (j['model'].vocab.a = -1), '`model.vocab["a"]` must be a non-negative integer id'],
      [(j) => (j['model'].merges = ['a b c']), '`model.merges[0]` must be the string "left right"'],
      [(j) => (j['model'].merges = ['a z']), '`model.merges[0]` must be a merge of two tokens that are in model.vocab, got "z" (not in the vocab)'],
      [(j) => (j['model'].merges = 'a b'), '`model.merges` must be an array of merges'],
      [(j) => (j['model'].type = 'Magic'), '`model.type`: model type "Magic" is not supported'],
      [(j) => (j['added_tokens'][0].id = 'x'), '`added_tokens[0].id` must be a non-negative integer'],
      [(j) => (j['added_tokens'][0].content = ''), '`added_tokens[0].content` must be a non-empty string'],
      [(j) => (j['added_tokens'] = {}), '`added_tokens` must be an array'],
      [(j) => (j['pre_tokenizer'] = { type: 'Sequence', pretokenizers: [{ type: 'Nope' }] }), '`pre_tokenizer.pretokenizers[0].type`: pre_tokenizer type "Nope" is not supported'],
      [(j) => (j['pre_tokenizer'] = { type: 'Split', behavior: 'Isolated' }), '`pre_tokenizer.pattern` must be an object {"Regex": …} or {"String": …}'],
      [(j) => (j['decoder'] = 'ByteLevel'), '`decoder` must be null or an object with a "type"'],
      [(j) => (j['padding'] = { direction: 'Up' }), '`padding.direction` must be "Left" or "Right"'],
    ];
    for (const [mutate, expected] of cases) {
      const raw = minimal();
      mutate(raw);
      expect(messageOf(raw)).toContain(expected);
      expect(messageOf(raw)).toMatch(/^\[tokenizer\] x\/tokenizer\.json: /);
    }
  });

  it('rejects a non-object root, unreadable files and broken JSON without a stack trace', () => {
    expect(messageOf([1])).toBe('[tokenizer] x/tokenizer.json: field `(root)` must be a JSON object, got an array of 1');
    const dir = mkdtempSync(join(tmpdir(), 'tok-'));
    writeFileSync(join(dir, 'bad.json'), '{"model": ');
    expect(() => Tokenizer.load(join(dir, 'bad.json'))).toThrow(/bad\.json: not valid JSON/);
    expect(() => Tokenizer.load(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read tokenizer file \(ENOENT\)/);
  });

  it('reports a regex the library cannot compile as a TokenizerError', () => {
    const raw = minimal();
    raw['pre_tokenizer'] = { type: 'Split', pattern: { Regex: '(' }, behavior: 'Isolated', invert: false };
    expect(messageOf(raw)).toContain('the tokenizer library rejected it');
  });
});
