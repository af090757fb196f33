import { describe, expect, it } from 'vitest';
import { encodeChat, renderChat, type ChatMessage } from './chat.js';
import { OURS_PATH } from './testing.js';
import { Tokenizer } from './tokenizer.js';

const tok = Tokenizer.load(OURS_PATH);

const CHAT: ChatMessage[] = [
  { role: 'system', content: '## ENVIRONMENT STATE\nYou are in a kitchen.' },
  { role: 'user', content: 'go to fridge 1' },
  { role: 'assistant', content: 'You arrive at fridge 1. The fridge 1 is closed.' },
  { role: 'user', content: 'open fridge 1' },
  { role: 'assistant', content: '\n  You open the fridge 1. 你好 🙂' },
];

describe('chat template', () => {
  it('renders ChatML with a generation prompt', () => {
    expect(renderChat(CHAT.slice(0, 2), { addGenerationPrompt: true })).toBe(
      '<|im_start|>system\n## ENVIRONMENT STATE\nYou are in a kitchen.<|im_end|>\n<|im_start|>user\ngo to fridge 1<|im_end|>\n<|im_start|>assistant\n',
    );
    expect(renderChat([{ role: 'tool', content: '{"ok": true}' }], { style: 'qwen' })).toBe('<|im_start|>user\n<tool_response>\n{"ok": true}\n</tool_response><|im_end|>\n');
    expect(renderChat([{ role: 'assistant', content: 'x' }], { emptyThinkBlock: true })).toBe('<|im_start|>assistant\n<think>\n\n</think>\n\nx<|im_end|>\n');
  });

  it('rendering a prefix of a conversation yields a prefix of the ids', () => {
    const whole = encodeChat(tok, CHAT);
    for (let k = 0; k <= CHAT.length; k++) {
      const prefix = encodeChat(tok, CHAT.slice(0, k)).ids;
      expect(whole.ids.slice(0, prefix.length)).toEqual(prefix);
      if (k < CHAT.length && CHAT[k]!.role === 'assistant') {
        const prompt = encodeChat(tok, CHAT.slice(0, k), { addGenerationPrompt: true }).ids;
        expect(whole.ids.slice(0, prompt.length)).toEqual(prompt);
      }
    }
  });

  it('encodes like the rendered text when no segment starts with a newline', () => {
    const plain = CHAT.slice(0, 4);
    expect(encodeChat(tok, plain, { addGenerationPrompt: true }).ids).toEqual(tok.encodeIds(renderChat(plain, { addGenerationPrompt: true })));
  });

  it('masks the loss to assistant content and its <|im_end|>', () => {
    const { ids, lossMask } = encodeChat(tok, CHAT);
    const imEnd = tok.requireId('<|im_end|>');
    const trained = ids.filter((_, i) => lossMask[i] === 1);
    const expected = [CHAT[2]!, CHAT[4]!].flatMap((m) => [...tok.encodeIds(m.content), imEnd]);
    expect(trained).toEqual(expected);
    expect(tok.decode(trained)).toBe(`${CHAT[2]!.content}<|im_end|>${CHAT[4]!.content}<|im_end|>`);
    const last = encodeChat(tok, CHAT, { lossOn: 'last' });
    expect(last.ids.filter((_, i) => last.lossMask[i] === 1)).toEqual([...tok.encodeIds(CHAT[4]!.content), imEnd]);
  });

  it('padAssistant pads every answer to a block boundary, pads trained as their answer', () => {
    const plain = encodeChat(tok, CHAT);
    const imEnd = tok.requireId('<|im_end|>');
    const PAD = 0;
    const { ids, lossMask } = encodeChat(tok, CHAT, { padAssistant: { block: 8, id: PAD } });
    // Each assistant <|im_end|> is followed by pads up to a multiple of 8; the next token starts a block.
    const ends = ids.flatMap((id, i) => (id === imEnd && lossMask[i] === 1 ? [i] : []));
    expect(ends).toHaveLength(2);
    for (const e of ends) {
      let j = e + 1;
      while (j % 8 !== 0) expect([ids[j], lossMask[j]]).toEqual([PAD, 1]), j++;
      expect(ids[j]).not.toBe(PAD);
    }
    // Without the pads it is the plain encoding.
    expect(ids.filter((_, i) => !ends.some((e) => i > e && i < Math.ceil((e + 1) / 8) * 8))).toEqual(plain.ids);
    expect(() => encodeChat(tok, CHAT, { padAssistant: { block: 0, id: PAD } })).toThrow(/padAssistant/);
  });

  it('names a malformed message', () => {
    expect(() => encodeChat(tok, [{ role: 'user' } as unknown as ChatMessage])).toThrow(/option `messages\[0\]` must be \{role: string, content: string\}/);
  });
});
