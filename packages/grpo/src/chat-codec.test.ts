import { fileURLToPath } from 'node:url';
import { Tokenizer, encodeChat } from '@diffworld/tokenizer';
import { describe, expect, it } from 'vitest';
import { ChatTurnCodec } from './chat-codec.js';
import { demonstration } from './rollout.js';
import { LineWalkEnv, lineWalkLayout, lineWalkTasks } from './toy/line-walk.js';

const TOKENIZER = fileURLToPath(new URL('../../../test-data/tokenizer/ours.tokenizer.json', import.meta.url));
const LIMITS = { maxTurns: 6, maxTokensPerTurn: 16, maxSeqLen: 512 };

describe('ChatTurnCodec', () => {
  it.each([false, true])('a rollout sequence equals encodeChat of its messages, ids and loss mask (empty think block: %s)', async (emptyThinkBlock) => {
    const tok = Tokenizer.load(TOKENIZER);
    const codec = new ChatTurnCodec(tok, { system: (t) => `You walk on a line. Task ${t.id}.`, emptyThinkBlock });
    const task = lineWalkTasks('t', 1, 9)[0]!;
    const { start, goal } = lineWalkLayout(task);
    const wrong = goal > start ? 'L' : 'R';
    const right = goal > start ? 'R' : 'L';
    const actions = [wrong, `${right}`, ...Array.from({ length: Math.abs(goal - start) }, () => right)];
    const ep = await demonstration(new LineWalkEnv(), task, actions, codec, LIMITS);
    expect(ep.won).toBe(true);
    // The env's final reply ends the conversation (the reward reads it) but not the token sequence:
    // no policy turn follows it, so it is never trained on or scored.
    expect(ep.messages.at(-1)!.role).toBe('user');
    const full = encodeChat(tok, [{ role: 'system', content: `You walk on a line. Task ${task.id}.` }, ...ep.messages.slice(0, -1)], { emptyThinkBlock });
    const newline = tok.encodeIds('\n', { addSpecialTokens: false }).length;
    // The episode ends on the assistant's <|im_end|>; the template adds one newline after it.
    expect(ep.ids).toEqual(full.ids.slice(0, -newline));
    expect(ep.lossMask).toEqual(full.lossMask.slice(0, -newline));
    expect(codec.decodeTurn(codec.encodeTurn('go north'))).toBe('go north');
  });
});
