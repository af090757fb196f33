// Plain-text corpus reading: lines with their "\n" kept, so newlines are learned. (Chat rows in
// JSONL / Parquet are read by @diffworld/dataset.)
import { createReadStream } from 'node:fs';
import { TokenizerError } from './errors.js';

/** Yields the lines of a file with their "\n" kept, streaming in chunks. */
export async function* readLinesKeepEnds(path: string): AsyncGenerator<string> {
  let rest = '';
  let stream;
  try {
    stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
    for await (const chunk of stream as AsyncIterable<string>) {
      rest += chunk;
      let start = 0;
      for (let nl = rest.indexOf('\n', start); nl !== -1; nl = rest.indexOf('\n', start)) {
        yield rest.slice(start, nl + 1);
        start = nl + 1;
      }
      rest = rest.slice(start);
    }
  } catch (e) {
    if (e instanceof TokenizerError) throw e;
    throw new TokenizerError([{ code: 'io', where: path, detail: `cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` }]);
  }
  if (rest !== '') yield rest;
}

/** Splits a text into the same units as readLinesKeepEnds. */
export function splitLinesKeepEnds(text: string): string[] {
  return text.split(/(?<=\n)/).filter((l) => l !== '');
}
