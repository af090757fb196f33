// Splits a byte stream into lines without ever holding more than one line plus one read chunk,
// so multi-GB JSONL files stream in constant memory. Lines are numbered from 1.
import { createReadStream } from 'node:fs';

export interface Line {
  /** 1-based line number in the file. */
  number: number;
  text: string;
}

const NL = 0x0a;

export async function* readLines(path: string, chunkSize = 1 << 20): AsyncGenerator<Line> {
  const stream = createReadStream(path, { highWaterMark: chunkSize });
  let pending: Buffer[] = [];
  let number = 0;
  const decode = (parts: Buffer[]): string => {
    let text = (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1); // CRLF files
    if (number === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // UTF-8 BOM
    return text;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(NL, start);
    while (nl !== -1) {
      pending.push(chunk.subarray(start, nl));
      number++;
      yield { number, text: decode(pending) };
      pending = [];
      start = nl + 1;
      nl = chunk.indexOf(NL, start);
    }
    // Copy the tail: keeping a subarray would pin the whole read chunk in memory.
    if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
  }
  if (pending.length > 0) {
    number++;
    yield { number, text: decode(pending) };
  }
}
