import { afterAll, describe, expect, it } from 'vitest';
import { encodeChat, type ChatMessage } from '../chat.js';
import { OURS_PATH } from '../testing.js';
import { Tokenizer } from '../tokenizer.js';
import { encodeTextsPacked, unpackRow } from './packed.js';
import { TokenizerPool } from './pool.js';

const tok = Tokenizer.load(OURS_PATH);
const pool = new TokenizerPool({ tokenizerPath: OURS_PATH, threads: 2, shardRows: 7 });
afterAll(() => pool.close());

describe('TokenizerPool', () => {
  it('encodes texts on worker threads exactly like the main thread, in input order', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `row ${i}: ${'word '.repeat(i % 9)}世界 🙂 <|im_end|>`);
    const packed = await pool.encodeTexts(texts);
    expect(packed.rowStarts.length).toBe(51);
    texts.forEach((t, i) => expect(unpackRow(packed, i).ids).toEqual(tok.encodeIds(t)));
    expect(packed).toEqual(encodeTextsPacked(tok, texts));
  });

  it('encodes chats with loss masks', async () => {
    const chats = Array.from({ length: 20 }, (_, i): ChatMessage[] => [
      { role: 'user', content: `look ${i}` },
      { role: 'assistant', content: `You see ${i} things.` },
    ]);
    const packed = await pool.encodeChats(chats);
    chats.forEach((c, i) => expect(unpackRow(packed, i)).toEqual(encodeChat(tok, c)));
  });

  it('reports a bad tokenizer path from the worker as an error', async () => {
    const bad = new TokenizerPool({ tokenizerPath: '/nonexistent/tokenizer.json', threads: 1 });
    await expect(bad.encodeTexts(['x'])).rejects.toThrow(/nonexistent\/tokenizer\.json: cannot read tokenizer file/);
    await bad.close();
    expect(() => new TokenizerPool({ tokenizerPath: OURS_PATH, threads: 0 })).toThrow(/threads` must be a positive integer/);
  });
});
