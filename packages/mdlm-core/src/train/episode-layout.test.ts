// The episode layout end to end at the token level: a training row and the inference prompt of any
// of its steps are built by the same function (@diffworld/dataset) and tokenized so that the
// prompt is a prefix of the row, for every objective (bd3's answer pads included).
import { type ChatMessage, worldModelPromptMessages, worldModelRowMessages } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { tinyWmTokenizer as tok } from '../testing/index.js';
import { type TrainExample, chatExample, eosPadId, promptIds } from './data.js';

const turn = (o: string) => `Observation:\n${o}\n\nAdmissible commands:\n- go to cabinet 1\n- go to cabinet 2\n- open cabinet 1\n- look`;
const observations = ['You arrive at cabinet 1. The cabinet 1 is closed.', 'You open the cabinet 1. In it, you see a mug 1.', 'You arrive at cabinet 2. On the cabinet 2, you see nothing.'];
const actions = ['go to cabinet 1', 'open cabinet 1', 'go to cabinet 2'];
const history: ChatMessage[] = [
  { role: 'system', content: 'You are an agent in a household.' },
  { role: 'user', content: turn('You are in the middle of a room. Your task is to: find a mug.') },
];
actions.forEach((a, k) => history.push({ role: 'assistant', content: `Action: ${a}` }, { role: 'user', content: turn(observations[k]!) }));
const system = '## ENVIRONMENT STATE\ncabinet 1 holds mug 1; cabinet 2 is empty.\n\nPREDICTION TARGET: the observation.';
/** The request of step k, as the simulated env sends it. */
const request = (k: number) => ({ system, history: history.slice(0, 2 + 2 * k), action: actions[k]! });
const eosId = eosPadId(tok)!;
const last = actions.length - 1;

describe('episode layout: training rows and inference prompts', () => {
  for (const [objective, blockLength] of [
    ['ar', 1],
    ['mdlm', 4],
    ['bd3', 4],
    ['bd3', 8],
  ] as const) {
    it(`${objective}${objective === 'bd3' ? ` (block ${blockLength})` : ''}: the prompt of every step is a prefix of the row, followed by that step's observation`, () => {
      const row = worldModelRowMessages(request(last), observations[last]!, { layout: 'episode' });
      const ex = chatExample(tok, row, { objective, blockLength, maxLength: 4096, eosId }) as TrainExample;
      expect(typeof ex).toBe('object');
      const ids = Array.from(ex.ids);
      expect(ex.spans).toHaveLength(actions.length); // one target span per observation
      for (let k = 0; k <= last; k++) {
        const prompt = promptIds(tok, worldModelPromptMessages(request(k), { layout: 'episode' }), { objective, blockLength });
        expect(ids.slice(0, prompt.length)).toEqual(prompt);
        const answer = tok.encodeIds(observations[k]!, { addSpecialTokens: false });
        expect(ids.slice(prompt.length, prompt.length + answer.length)).toEqual(answer);
        // The span starts right after the prompt and holds the answer, its end marker and (bd3) the pads.
        const span = ex.spans![k]!;
        expect(span.start).toBe(prompt.length);
        if (objective === 'bd3') {
          expect((span.start + span.length) % blockLength).toBe(0); // no block holds the answer's end and the next turn
          expect(ids.slice(span.start + answer.length + 1, span.start + span.length).every((t) => t === eosId)).toBe(true);
        }
      }
    });
  }

  it('trains most tokens of an episode row, against a small share of the transition rows of the same steps', () => {
    const share = (exs: TrainExample[]) => exs.reduce((a, e) => a + e.target.reduce((x, y) => x + y, 0), 0) / exs.reduce((a, e) => a + e.ids.length, 0);
    const opts = { objective: 'ar' as const, blockLength: 1, maxLength: 8192, eosId };
    const episode = chatExample(tok, worldModelRowMessages(request(last), observations[last]!, { layout: 'episode' }), opts) as TrainExample;
    const transitions = actions.map((_, k) => chatExample(tok, worldModelRowMessages(request(k), observations[k]!, { layout: 'transition' }), opts) as TrainExample);
    const tokens = (exs: TrainExample[]) => exs.reduce((a, e) => a + e.ids.length, 0);
    // Three steps: the episode row holds every observation once, the transition rows repeat the history.
    expect(tokens([episode])).toBeLessThan(tokens(transitions) / 2);
    expect(share([episode])).toBeGreaterThan(2 * share(transitions));
    // Both train exactly the observations (and their end markers).
    const trained = (exs: TrainExample[]) => exs.reduce((a, e) => a + e.target.reduce((x, y) => x + y, 0), 0);
    expect(trained([episode])).toBe(trained(transitions));
  });

  it("targets: 'last' trains only the final observation (the old single-target behaviour)", () => {
    const row = worldModelRowMessages(request(last), observations[last]!, { layout: 'episode' });
    const ex = chatExample(tok, row, { objective: 'ar', blockLength: 1, maxLength: 4096, eosId, targets: 'last' }) as TrainExample;
    expect(ex.spans).toHaveLength(1);
  });
});
