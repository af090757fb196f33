// Character offsets for an encoding. @huggingface/tokenizers returns tokens but no offsets, so we
// align the tokens' bytes back onto the input text. Offsets are JS string (UTF-16) indices, so
// `text.slice(start, end)` is the token's source; a token holding part of a multi-byte character
// spans that whole character, as in the Rust library.
import { fromByteLevel } from './bytelevel.js';

export type Offset = [start: number, end: number];

const encoder = new TextEncoder();

/** For each UTF-8 byte of `text`: the UTF-16 start and end of the character it belongs to. */
function byteToCharMaps(text: string): { bytes: Uint8Array; start: Int32Array; end: Int32Array } {
  const bytes = encoder.encode(text);
  const start = new Int32Array(bytes.length + 1);
  const end = new Int32Array(bytes.length + 1);
  let b = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    // Lone surrogates become U+FFFD (3 bytes) in TextEncoder.
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (let k = 0; k < n; k++) {
      start[b + k] = i;
      end[b + k] = i + units;
    }
    b += n;
    i += units;
  }
  start[bytes.length] = text.length;
  end[bytes.length] = text.length;
  return { bytes, start, end };
}

const isSpaceByte = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d);

/**
 * Aligns byte-level `tokens` on `text`. `added` holds the added-token contents (matched literally,
 * possibly after whitespace that lstrip/rstrip removed); an added token not found at the cursor
 * was inserted by the post-processor and gets [0, 0] like in `tokenizers`. Returns null when the
 * tokens do not spell the text (a normalizer changed it, or the model is not byte-level).
 */
export function alignByteLevel(text: string, tokens: readonly string[], added: ReadonlySet<string>): Offset[] | null {
  const { bytes, start, end } = byteToCharMaps(text);
  const out: Offset[] = [];
  let cur = 0;
  for (const token of tokens) {
    if (added.has(token)) {
      const tb = encoder.encode(token);
      let at = cur;
      while (at < bytes.length && !matchesAt(bytes, tb, at) && isSpaceByte(bytes[at]!)) at++;
      if (matchesAt(bytes, tb, at)) {
        out.push([start[at]!, end[at + tb.length - 1]!]);
        cur = at + tb.length;
      } else {
        out.push([0, 0]);
      }
      continue;
    }
    const tb = fromByteLevel(token);
    if (!tb || tb.length === 0) return null;
    // Whitespace right after an rstrip added token was dropped before the model saw it.
    while (cur < bytes.length && !matchesAt(bytes, tb, cur) && isSpaceByte(bytes[cur]!)) cur++;
    if (!matchesAt(bytes, tb, cur)) return null;
    out.push([start[cur]!, end[cur + tb.length - 1]!]);
    cur += tb.length;
  }
  return out;
}

function matchesAt(hay: Uint8Array, needle: Uint8Array, at: number): boolean {
  if (at + needle.length > hay.length) return false;
  for (let i = 0; i < needle.length; i++) if (hay[at + i] !== needle[i]) return false;
  return true;
}

/** ByteLevel post-processor `trim_offsets`: leading/trailing spaces of a token leave its offsets. */
export function trimByteLevelOffsets(tokens: readonly string[], offsets: Offset[]): Offset[] {
  const isSpace = (c: string) => c === '\u0120' || /\s/u.test(c);
  return offsets.map(([s, e], i) => {
    const t = tokens[i]!;
    let lead = 0;
    while (lead < t.length && isSpace(t[lead]!)) lead++;
    let trail = 0;
    while (trail < t.length - lead && isSpace(t[t.length - 1 - trail]!)) trail++;
    const ns = Math.min(s + lead, e);
    return [ns, Math.max(e - trail, ns)];
  });
}
