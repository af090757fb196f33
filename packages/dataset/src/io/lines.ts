// Splits a byte stream into lines without ever holding more than one line plus one read chunk,
// so multi-GB JSONL files stream in constant memory. Lines are numbered from 1. Each line's bytes
// are checked to be UTF-8 (simdutf, via isUtf8) before decoding: a bad byte is reported on its own
// line, never turned silently into U+FFFD (Python's open(..., encoding='utf-8') raises there too).
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';

export interface Line {
  /** 1-based line number in the file. */
  number: number;
  /** The decoded line; when the bytes are not UTF-8 (see badUtf8), decoded with U+FFFD replacements. */
  text: string;
  /** Set when the line's bytes are not valid UTF-8: the 0-based byte offset of the first bad byte. */
  badUtf8?: number;
}

const NL = 0x0a;

export async function* readLines(path: string, chunkSize = 1 << 20): AsyncGenerator<Line> {
  const stream = createReadStream(path, { highWaterMark: chunkSize });
  let pending: Buffer[] = [];
  let number = 0;
  const decode = (parts: Buffer[]): Line => {
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    let text = bytes.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1); // CRLF files
    if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // UTF-8 BOM
    return isUtf8(bytes) ? { number, text } : { number, text, badUtf8: firstInvalidUtf8(bytes) };
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(NL, start);
    while (nl !== -1) {
      pending.push(chunk.subarray(start, nl));
      number++;
      yield decode(pending);
      pending = [];
      start = nl + 1;
      nl = chunk.indexOf(NL, start);
    }
    // Copy the tail: keeping a subarray would pin the whole read chunk in memory.
    if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
  }
  if (pending.length > 0) {
    number++;
    yield decode(pending);
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC 3629). */
export function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c < 0x80) n = 0;
    else if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      if (c === 0xf4) hi = 0x8f; // past U+10FFFF
    } else return i;
    for (let k = 1; k <= n; k++) {
      const t = b[i + k];
      if (t === undefined || t < (k === 1 ? lo : 0x80) || t > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}
