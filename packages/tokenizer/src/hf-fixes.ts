// Where @huggingface/tokenizers 0.2.0 differs from Rust `tokenizers` on the pipelines of Llama-2 /
// Mistral / T5-style files, the library's component objects are given Rust's behaviour here (the
// golden test against Python `tokenizers` checks every family):
//   - Metaspace pre-tokenizer: `split: true` (Rust's default) cuts the text before each ▁
//     (MergedWithNext); the library never splits. An old `add_prefix_space: false` means "never".
//   - Metaspace decoder: Rust drops every ▁ of the first token unless prepend_scheme is "never";
//     the library only strips one leading space, whatever the scheme.
//   - ByteFallback decoder: bytes that are not valid UTF-8 become one U+FFFD per byte token, as in
//     Rust; the library's TextDecoder folds them by maximal subparts.
import * as hf from '@huggingface/tokenizers';

// The library's declarations re-export these through paths NodeNext cannot follow (see hf-split.ts).
type Ctor = abstract new (...args: never[]) => unknown;
const exported = { ...hf } as unknown as Record<string, Ctor>;
const [MetaspacePreTokenizer, SequencePreTokenizer, MetaspaceDecoder, SequenceDecoder, ByteFallbackDecoder] = (
  ['MetaspacePreTokenizer', 'SequencePreTokenizer', 'MetaspaceDecoder', 'SequenceDecoder', 'ByteFallbackDecoder'] as const
).map((name) => {
  const c = exported[name];
  if (typeof c !== 'function') throw new Error(`@huggingface/tokenizers no longer exports ${name}; hf-fixes.ts needs updating`);
  return c;
}) as [Ctor, Ctor, Ctor, Ctor, Ctor];

type Obj = Record<string, unknown>;
type PreTokenize = (text: string, options?: { section_index?: number }) => string[];

const REPLACEMENT = '\u2581';
// ignoreBOM keeps a U+FEFF that a run of byte tokens starts with (Rust's from_utf8 keeps it too).
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** "always" | "first" | "never" from a Metaspace config, old `add_prefix_space` included. */
function prependScheme(c: Obj): string {
  if (typeof c['prepend_scheme'] === 'string') return c['prepend_scheme'];
  return c['add_prefix_space'] === false ? 'never' : 'always';
}

/** Cuts before every occurrence of `delimiter`, which stays at the start of the next piece. */
export function splitMergedWithNext(text: string, delimiter: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf(delimiter, 1); i >= 0; i = text.indexOf(delimiter, i + delimiter.length)) {
    if (i > start) out.push(text.slice(start, i));
    start = i;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

function fixPreTokenizer(p: unknown, c: Obj | null): void {
  if (!p || !c) return;
  if (p instanceof SequencePreTokenizer) {
    const kids = (p as unknown as { tokenizers: unknown[] }).tokenizers;
    const configs = (c['pretokenizers'] as Obj[] | undefined) ?? [];
    kids.forEach((k, i) => fixPreTokenizer(k, configs[i] ?? null));
    return;
  }
  if (p instanceof MetaspacePreTokenizer) {
    const m = p as unknown as { prepend_scheme: string; replacement: string; pre_tokenize_text: PreTokenize };
    m.prepend_scheme = prependScheme(c);
    const base = m.pre_tokenize_text.bind(p);
    const split = c['split'] !== false;
    m.pre_tokenize_text = (text, options) => base(text, options).flatMap((s) => (split ? splitMergedWithNext(s, m.replacement) : [s]));
  }
}

function fixDecoder(d: unknown, c: Obj | null): void {
  if (!d || !c) return;
  if (d instanceof SequenceDecoder) {
    const kids = (d as unknown as { decoders: unknown[] }).decoders;
    const configs = (c['decoders'] as Obj[] | undefined) ?? [];
    kids.forEach((k, i) => fixDecoder(k, configs[i] ?? null));
    return;
  }
  if (d instanceof MetaspaceDecoder) {
    const replacement = typeof c['replacement'] === 'string' ? c['replacement'] : REPLACEMENT;
    const dropFirst = prependScheme(c) !== 'never';
    (d as unknown as { decode_chain: (t: string[]) => string[] }).decode_chain = (tokens) =>
      tokens.map((t, i) => (i === 0 && dropFirst ? t.replaceAll(replacement, '') : t.replaceAll(replacement, ' ')));
    return;
  }
  if (d instanceof ByteFallbackDecoder) {
    (d as unknown as { decode_chain: (t: string[]) => string[] }).decode_chain = decodeByteFallback;
  }
}

/** `<0xNN>` runs to text; a run that is not valid UTF-8 gives one U+FFFD per byte token (Rust). */
function decodeByteFallback(tokens: string[]): string[] {
  const out: string[] = [];
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length === 0) return;
    try {
      out.push(fatalUtf8.decode(Uint8Array.from(bytes)));
    } catch {
      for (let i = 0; i < bytes.length; i++) out.push('\uFFFD');
    }
    bytes = [];
  };
  for (const t of tokens) {
    const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(t);
    if (m) bytes.push(Number.parseInt(m[1]!, 16));
    else {
      flush();
      out.push(t);
    }
  }
  flush();
  return out;
}

/** Gives the library's components Rust's behaviour where 0.2.0 differs (see the header). */
export function alignWithRustTokenizers(tok: hf.Tokenizer, json: { pre_tokenizer: unknown; decoder: unknown }): void {
  fixPreTokenizer(tok.pre_tokenizer, (json.pre_tokenizer as Obj | null) ?? null);
  fixDecoder(tok.decoder, (json.decoder as Obj | null) ?? null);
}
