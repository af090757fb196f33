// A tokenizer.json, loaded through @huggingface/tokenizers, with what the library lacks added on
// top: input validation, offsets, batch truncation/padding and lookup of the special tokens.
import { readFileSync } from 'node:fs';
import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { truncateAndPad, type BatchEncoding, type BatchOptions } from './batch.js';
import { TokenizerError } from './errors.js';
import { FastByteLevelBpe } from './fast.js';
import { alignWithRustTokenizers } from './hf-fixes.js';
import { alignByteLevel, trimByteLevelOffsets, type Offset } from './offsets.js';
import { MASK_ALIASES, PAD_ALIASES } from './special.js';
import { validateTokenizerJson, type TokenizerJson } from './validate.js';

export interface Encoding {
  ids: number[];
  tokens: string[];
  /** UTF-16 [start, end) of each token in the input; null if tokens cannot be aligned (see README). */
  offsets: Offset[] | null;
}

export interface EncodeOptions {
  /** Add the post-processor's special tokens (BOS/EOS templates); default true like `tokenizers`. */
  addSpecialTokens?: boolean;
}

export interface LoadOptions {
  /** Use the built-in fast byte-level BPE encoder when the layout allows (default true). */
  fast?: boolean;
}

export interface DecodeOptions {
  skipSpecialTokens?: boolean;
}

export class Tokenizer {
  private readonly hf: HfTokenizer;
  private readonly addedContents: ReadonlySet<string>;
  private readonly specialIds: ReadonlySet<number>;
  private readonly trimOffsets: boolean;
  /** The single-sequence template of a TemplateProcessing post-processor: where its tokens go. */
  private readonly singleTemplate: readonly ('special' | 'sequence')[] | null;
  private readonly byteLevel: boolean;
  private readonly fast: FastByteLevelBpe | null;
  /** Number of ids (max id + 1), added tokens included. */
  readonly vocabSize: number;

  private constructor(
    readonly json: TokenizerJson,
    readonly source: string,
    opts: LoadOptions,
  ) {
    try {
      // clean_up_tokenization_spaces would rewrite " ." → "." on decode and break round trips.
      this.hf = new HfTokenizer(json, { clean_up_tokenization_spaces: false });
      alignWithRustTokenizers(this.hf, json);
    } catch (e) {
      throw new TokenizerError([{ code: 'unsupported', where: source, field: '(components)', detail: `the tokenizer library rejected it: ${(e as Error).message}` }]);
    }
    this.addedContents = new Set(json.added_tokens.map((t) => t.content));
    this.specialIds = new Set(json.added_tokens.filter((t) => t.special).map((t) => t.id));
    const components = (c: unknown): Record<string, unknown>[] => {
      if (!c || typeof c !== 'object') return [];
      const o = c as Record<string, unknown>;
      const kids = (o['processors'] ?? o['pretokenizers'] ?? o['decoders']) as unknown[] | undefined;
      return o['type'] === 'Sequence' && Array.isArray(kids) ? kids.flatMap(components) : [o];
    };
    this.trimOffsets = components(json.post_processor).some((p) => p['type'] === 'ByteLevel' && p['trim_offsets'] === true);
    this.byteLevel = components(json.decoder).some((d) => d['type'] === 'ByteLevel');
    const template = components(json.post_processor).find((p) => p['type'] === 'TemplateProcessing');
    this.singleTemplate = Array.isArray(template?.['single']) ? (template['single'] as Record<string, unknown>[]).map((item) => ('SpecialToken' in item ? 'special' : 'sequence')) : null;
    this.fast = opts.fast === false ? null : FastByteLevelBpe.tryCreate(json);
    // A loop, not Math.max(...ids): spreading a 151k-entry vocab overflows the call stack.
    let maxId = -1;
    for (const id of this.hf.get_vocab(true).values()) if (id > maxId) maxId = id;
    this.vocabSize = maxId + 1;
  }

  /** Builds a tokenizer from parsed tokenizer.json; `where` names the source in errors. */
  static fromJson(raw: unknown, where = 'tokenizer.json', opts: LoadOptions = {}): Tokenizer {
    const checked = validateTokenizerJson(raw, where);
    if (!checked.ok) throw new TokenizerError(checked.issues);
    return new Tokenizer(checked.value, where, opts);
  }

  /** Reads and checks a tokenizer.json file. */
  static load(path: string, opts: LoadOptions = {}): Tokenizer {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new TokenizerError([{ code: 'io', where: path, detail: `cannot read tokenizer file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` }]);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new TokenizerError([{ code: 'invalid_json', where: path, detail: (e as Error).message }]);
    }
    return Tokenizer.fromJson(raw, path, opts);
  }

  tokenToId(token: string): number | undefined {
    return this.hf.token_to_id(token);
  }

  idToToken(id: number): string | undefined {
    return this.hf.id_to_token(id);
  }

  /** The id of `token`, or a TokenizerError naming it. */
  requireId(token: string): number {
    const id = this.tokenToId(token);
    if (id === undefined) throw new TokenizerError([{ code: 'unknown_token', where: this.source, token }]);
    return id;
  }

  isSpecial(id: number): boolean {
    return this.specialIds.has(id);
  }

  /** The diffusion mask token's id (`<|mask|>` or a known alias), if the tokenizer has one. */
  get maskId(): number | undefined {
    return firstId(this, MASK_ALIASES);
  }

  /** The pad id: tokenizer.json `padding.pad_id`, else `<|pad|>` or a known alias. */
  get padId(): number | undefined {
    const p = this.json.padding;
    if (p?.pad_id !== undefined && p.pad_token !== undefined) return p.pad_id;
    if (p?.pad_token !== undefined) return this.tokenToId(p.pad_token);
    return firstId(this, PAD_ALIASES);
  }

  /** True when encoding uses the built-in fast byte-level BPE path. */
  get usesFastPath(): boolean {
    return this.fast !== null;
  }

  /** Encodes one text with tokens and offsets. */
  encode(text: string, opts: EncodeOptions = {}): Encoding {
    const enc = this.fast
      ? (() => {
          const ids = this.fast!.encode(text);
          return { ids, tokens: ids.map((id) => this.idToToken(id)!) };
        })()
      : this.hf.encode(text, { add_special_tokens: opts.addSpecialTokens ?? true });
    return { ids: enc.ids, tokens: enc.tokens, offsets: this.byteLevel ? this.offsetsOf(text, enc.tokens, opts.addSpecialTokens ?? true) : null };
  }

  private offsetsOf(text: string, tokens: string[], addSpecialTokens: boolean): Offset[] | null {
    if (addSpecialTokens && this.singleTemplate?.includes('special')) {
      // The template's tokens get [0, 0] (as in `tokenizers`) wherever they stand, even when the text
      // starts with the same token: align the encoding without them, then put them in their places.
      const plain = this.hf.encode(text, { add_special_tokens: false }).tokens;
      const inner = this.offsetsOf(text, plain, false);
      if (!inner) return null;
      const out = this.singleTemplate.flatMap((item) => (item === 'special' ? [[0, 0] as Offset] : inner));
      return out.length === tokens.length ? out : null;
    }
    const offsets = alignByteLevel(text, tokens, this.addedContents);
    return offsets && this.trimOffsets ? trimByteLevelOffsets(tokens, offsets) : offsets;
  }

  /** Ids only: the fast path for corpora (no offset alignment). */
  encodeIds(text: string, opts: EncodeOptions = {}): number[] {
    if (this.fast) return this.fast.encode(text);
    return this.hf.encode(text, { add_special_tokens: opts.addSpecialTokens ?? true }).ids;
  }

  decode(ids: readonly number[], opts: DecodeOptions = {}): string {
    if (ids.length === 0) return ''; // the library throws on an empty list
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (!Number.isInteger(id) || id < 0 || this.idToToken(id) === undefined) {
        throw new TokenizerError([{ code: 'bad_option', where: 'decode', option: `ids[${i}]`, detail: `is ${id}, not an id of this tokenizer (vocab size ${this.vocabSize})` }]);
      }
    }
    return this.hf.decode([...ids], { skip_special_tokens: opts.skipSpecialTokens ?? false, clean_up_tokenization_spaces: false });
  }

  /** Encodes many texts, then truncates and pads them (see BatchOptions). */
  encodeBatch(texts: readonly string[], opts: BatchOptions = {}): BatchEncoding {
    const rows = texts.map((t) => this.encodeIds(t, { addSpecialTokens: opts.addSpecialTokens ?? true }));
    const dir = this.json.padding?.direction;
    return truncateAndPad(rows, {
      ...opts,
      padSide: opts.padSide ?? (dir === 'Left' ? 'left' : 'right'),
      padId: opts.padId ?? this.padId,
    });
  }
}

function firstId(tok: Tokenizer, candidates: readonly string[]): number | undefined {
  for (const c of candidates) {
    const id = tok.tokenToId(c);
    if (id !== undefined) return id;
  }
  return undefined;
}
