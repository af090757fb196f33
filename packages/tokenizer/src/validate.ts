// Structural check of a tokenizer.json before it reaches @huggingface/tokenizers, whose own errors
// are bare TypeErrors ("Cannot read properties of undefined"). Each issue names the JSON path.
import { describeValue, type Result, type TokenizerIssue } from './errors.js';

/** The parts of tokenizer.json this package reads itself (the library reads the rest). */
export interface TokenizerJson {
  version?: string;
  added_tokens: AddedTokenJson[];
  normalizer: JsonObject | null;
  pre_tokenizer: JsonObject | null;
  post_processor: JsonObject | null;
  decoder: JsonObject | null;
  model: JsonObject & { type: string };
  truncation?: JsonObject | null;
  padding?: PaddingJson | null;
  [key: string]: unknown;
}
export interface AddedTokenJson {
  id: number;
  content: string;
  single_word?: boolean;
  lstrip?: boolean;
  rstrip?: boolean;
  normalized?: boolean;
  special?: boolean;
}
export interface PaddingJson {
  direction?: 'Left' | 'Right';
  pad_id?: number;
  pad_token?: string;
  [key: string]: unknown;
}
type JsonObject = { [key: string]: unknown };

// Component types the library implements (see its README); anything else would fail inside it.
const KNOWN: Record<'normalizer' | 'pre_tokenizer' | 'post_processor' | 'decoder' | 'model', readonly string[]> = {
  normalizer: ['NFD', 'NFKD', 'NFC', 'NFKC', 'Lowercase', 'Strip', 'StripAccents', 'Replace', 'BertNormalizer', 'Precompiled', 'Sequence', 'Prepend'],
  pre_tokenizer: ['BertPreTokenizer', 'ByteLevel', 'Whitespace', 'WhitespaceSplit', 'Metaspace', 'CharDelimiterSplit', 'Split', 'Punctuation', 'Digits', 'Sequence', 'Replace', 'UnicodeScripts', 'FixedLength'],
  post_processor: ['ByteLevel', 'TemplateProcessing', 'RobertaProcessing', 'BertProcessing', 'Sequence'],
  decoder: ['ByteLevel', 'WordPiece', 'Metaspace', 'BPEDecoder', 'CTC', 'Sequence', 'Replace', 'Fuse', 'Strip', 'ByteFallback'],
  model: ['BPE', 'WordPiece', 'Unigram'],
};
// Where a Sequence component keeps its children.
const SEQUENCE_CHILDREN = { normalizer: 'normalizers', pre_tokenizer: 'pretokenizers', post_processor: 'processors', decoder: 'decoders' } as const;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

class Checker {
  readonly issues: TokenizerIssue[] = [];
  constructor(private readonly where: string) {}
  fail(field: string, expected: string, got: unknown, gotIsDescription = false): void {
    const described = gotIsDescription ? String(got) : describeValue(got);
    this.issues.push({ code: 'invalid_field', where: this.where, field, expected, got: described });
  }
  unsupported(field: string, detail: string): void {
    this.issues.push({ code: 'unsupported', where: this.where, field, detail });
  }
  optionalBool(obj: JsonObject, key: string, path: string): void {
    if (obj[key] !== undefined && typeof obj[key] !== 'boolean') this.fail(`${path}.${key}`, 'a boolean', obj[key]);
  }
}

/** Checks `raw` (parsed JSON) and returns it typed, or every problem found with its JSON path. */
export function validateTokenizerJson(raw: unknown, where = 'tokenizer.json'): Result<TokenizerJson> {
  const c = new Checker(where);
  if (!isObject(raw)) {
    c.fail('(root)', 'a JSON object', raw);
    return { ok: false, issues: c.issues };
  }
  checkModel(c, raw['model']);
  checkAddedTokens(c, raw['added_tokens']);
  for (const key of ['normalizer', 'pre_tokenizer', 'post_processor', 'decoder'] as const) {
    checkComponent(c, key, raw[key], key);
  }
  checkPadding(c, raw['padding']);
  if (raw['truncation'] !== undefined && raw['truncation'] !== null && !isObject(raw['truncation'])) {
    c.fail('truncation', 'null or an object', raw['truncation']);
  }
  if (c.issues.length > 0) return { ok: false, issues: c.issues };
  // Python writes every component key; older or hand-written files may omit the null ones.
  const value = {
    ...raw,
    added_tokens: raw['added_tokens'] ?? [],
    normalizer: raw['normalizer'] ?? null,
    pre_tokenizer: raw['pre_tokenizer'] ?? null,
    post_processor: raw['post_processor'] ?? null,
    decoder: raw['decoder'] ?? null,
  } as TokenizerJson;
  return { ok: true, value };
}

function checkModel(c: Checker, model: unknown): void {
  if (!isObject(model)) return c.fail('model', 'an object', model);
  const type = model['type'] ?? (isObject(model['vocab']) && Array.isArray(model['merges']) ? 'BPE' : undefined);
  if (typeof type !== 'string') return c.fail('model.type', 'a string', model['type']);
  if (!KNOWN.model.includes(type)) return c.unsupported('model.type', `model type "${type}" is not supported (${KNOWN.model.join(', ')})`);
  if (model['type'] === undefined) model['type'] = type; // the Rust serializer may omit it for BPE
  if (type === 'Unigram') {
    if (!Array.isArray(model['vocab'])) return c.fail('model.vocab', 'an array of [piece, score]', model['vocab']);
    model['vocab'].forEach((e, i) => {
      if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'number') c.fail(`model.vocab[${i}]`, '[string, number]', e);
    });
    return;
  }
  const vocab = model['vocab'];
  if (!isObject(vocab)) return c.fail('model.vocab', 'an object mapping token → id', vocab);
  for (const [token, id] of Object.entries(vocab)) {
    if (!isId(id)) {
      c.fail(`model.vocab[${JSON.stringify(token)}]`, 'a non-negative integer id', id);
      if (c.issues.length > 20) return;
    }
  }
  if (type !== 'BPE') return;
  const merges = model['merges'];
  if (!Array.isArray(merges)) return c.fail('model.merges', 'an array of merges', merges);
  for (let i = 0; i < merges.length && c.issues.length <= 20; i++) {
    const m = merges[i];
    let pair: [string, string] | undefined;
    if (typeof m === 'string') {
      const parts = m.split(' ');
      if (parts.length === 2 && parts[0] && parts[1]) pair = [parts[0], parts[1]];
      else c.fail(`model.merges[${i}]`, 'the string "left right" (two tokens, one space)', m);
    } else if (Array.isArray(m) && m.length === 2 && typeof m[0] === 'string' && typeof m[1] === 'string') {
      pair = [m[0], m[1]];
    } else {
      c.fail(`model.merges[${i}]`, 'a "left right" string or a [left, right] pair', m);
    }
    if (pair) {
      for (const part of pair) {
        if (!(part in vocab)) c.fail(`model.merges[${i}]`, 'a merge of two tokens that are in model.vocab', `${JSON.stringify(part)} (not in the vocab)`, true);
      }
    }
  }
  if (model['dropout'] !== undefined && model['dropout'] !== null && model['dropout'] !== 0) {
    c.unsupported('model.dropout', 'BPE dropout is random at encode time and is not supported; set it to null');
  }
  for (const key of ['byte_fallback', 'fuse_unk', 'ignore_merges']) c.optionalBool(model, key, 'model');
  for (const key of ['unk_token', 'continuing_subword_prefix', 'end_of_word_suffix']) {
    const v = model[key];
    if (v !== undefined && v !== null && typeof v !== 'string') c.fail(`model.${key}`, 'null or a string', v);
  }
}

function checkAddedTokens(c: Checker, added: unknown): void {
  if (added === undefined) return;
  if (!Array.isArray(added)) return c.fail('added_tokens', 'an array', added);
  added.forEach((t, i) => {
    const path = `added_tokens[${i}]`;
    if (!isObject(t)) return c.fail(path, 'an object {id, content, …}', t);
    if (!isId(t['id'])) c.fail(`${path}.id`, 'a non-negative integer', t['id']);
    if (typeof t['content'] !== 'string' || t['content'] === '') c.fail(`${path}.content`, 'a non-empty string', t['content']);
    for (const key of ['single_word', 'lstrip', 'rstrip', 'normalized', 'special']) c.optionalBool(t, key, path);
  });
}

function checkComponent(c: Checker, kind: keyof typeof SEQUENCE_CHILDREN, v: unknown, path: string): void {
  if (v === undefined || v === null) return;
  if (!isObject(v)) return c.fail(path, 'null or an object with a "type"', v);
  const type = v['type'];
  if (typeof type !== 'string') return c.fail(`${path}.type`, 'a string', type);
  if (!KNOWN[kind].includes(type)) return c.unsupported(`${path}.type`, `${kind} type "${type}" is not supported (${KNOWN[kind].join(', ')})`);
  if (type === 'Sequence') {
    const key = SEQUENCE_CHILDREN[kind];
    const children = v[key];
    if (!Array.isArray(children)) return c.fail(`${path}.${key}`, 'an array', children);
    children.forEach((child, i) => checkComponent(c, kind, child, `${path}.${key}[${i}]`));
  }
  if (type === 'Split' || type === 'Replace') {
    const pattern = v['pattern'];
    if (!isObject(pattern) || (typeof pattern['Regex'] !== 'string' && typeof pattern['String'] !== 'string')) {
      c.fail(`${path}.pattern`, 'an object {"Regex": …} or {"String": …}', pattern);
    }
  }
  if (type === 'Split' && typeof v['behavior'] !== 'string') c.fail(`${path}.behavior`, 'a string such as "Isolated"', v['behavior']);
  if (type === 'TemplateProcessing' && !Array.isArray(v['single'])) c.fail(`${path}.single`, 'an array', v['single']);
}

function checkPadding(c: Checker, padding: unknown): void {
  if (padding === undefined || padding === null) return;
  if (!isObject(padding)) return c.fail('padding', 'null or an object', padding);
  if (padding['direction'] !== undefined && padding['direction'] !== 'Left' && padding['direction'] !== 'Right') {
    c.fail('padding.direction', '"Left" or "Right"', padding['direction']);
  }
  if (padding['pad_id'] !== undefined && !isId(padding['pad_id'])) c.fail('padding.pad_id', 'a non-negative integer', padding['pad_id']);
  if (padding['pad_token'] !== undefined && typeof padding['pad_token'] !== 'string') c.fail('padding.pad_token', 'a string', padding['pad_token']);
}
