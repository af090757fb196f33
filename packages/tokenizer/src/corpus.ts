// Corpus readers for training and tokenization: .txt files yield lines (with their "\n", so
// newlines are learned), .jsonl files yield chat rows ({"messages": […]} or a bare array, the
// formats of the paper's prepare_data scripts). Bad rows fail with file:line.
import { createReadStream } from 'node:fs';
import type { ChatMessage } from './chat.js';
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

/** Parses one JSONL line into messages; `where` is "file:line" for errors. Empty lines give null. */
export function parseChatRow(line: string, where: string): ChatMessage[] | null {
  if (line.trim() === '') return null;
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch (e) {
    throw new TokenizerError([{ code: 'invalid_json', where, detail: (e as Error).message }]);
  }
  const messages = Array.isArray(row) ? row : (row as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) {
    throw new TokenizerError([{ code: 'invalid_field', where, field: 'messages', expected: 'an array of {role, content}', got: typeof row }]);
  }
  return messages.map((m: unknown, i) => {
    const o = m as { role?: unknown; content?: unknown } | null;
    if (typeof o?.role !== 'string' || typeof o?.content !== 'string') {
      throw new TokenizerError([{ code: 'invalid_field', where, field: `messages[${i}]`, expected: '{role: string, content: string}', got: JSON.stringify(m)?.slice(0, 60) ?? String(m) }]);
    }
    return { role: o.role, content: o.content };
  });
}

/** Yields the chat rows of a JSONL file. */
export async function* readChatRows(path: string): AsyncGenerator<ChatMessage[]> {
  let n = 0;
  for await (const line of readLinesKeepEnds(path)) {
    n++;
    const row = parseChatRow(line, `${path}:${n}`);
    if (row) yield row;
  }
}
