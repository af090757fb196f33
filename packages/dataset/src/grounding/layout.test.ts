import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../rows.js';
import { episodeMessages, episodeStepRows, fitEpisodeWindow, parseEpisodeRow, worldModelLayoutOf, worldModelPromptMessages, worldModelRowMessages } from './layout.js';
import { trajectoryToWorldModelRows } from './worldmodel.js';

const turn = (o: string) => `Observation:\n${o}\n\nAdmissible commands:\n- look\n- go to desk 1`;
const history: ChatMessage[] = [
  { role: 'system', content: 'You are an agent.' },
  { role: 'user', content: turn('You are in a room. Your task is to: put a pen on the desk.') },
  { role: 'assistant', content: 'Action: go to desk 1' },
  { role: 'user', content: turn('You arrive at desk 1. On the desk 1, you see a pen 1.') },
  { role: 'assistant', content: 'Action: take pen 1 from desk 1' },
  { role: 'user', content: turn('You pick up the pen 1 from the desk 1.') },
];
const req = { system: 'WORLD', history, action: 'look' };

describe('world-model layouts', () => {
  it('transition: the paper row, as trajectoryToWorldModelRows writes it', () => {
    const row = worldModelRowMessages(req, 'You are facing desk 1.', { layout: 'transition' });
    const traj = trajectoryToWorldModelRows({ grounding: 'WORLD', messages: [...history, { role: 'assistant', content: 'look' }, { role: 'user', content: 'You are facing desk 1.' }] });
    expect(row).toEqual(traj[2]!.messages);
    expect(worldModelLayoutOf(row)).toBe('transition');
  });

  it('episode: the first observation (no admissible list), then one Action turn and one observation per step', () => {
    expect(worldModelPromptMessages(req, { layout: 'episode' })).toEqual([
      { role: 'system', content: 'WORLD' },
      { role: 'user', content: 'You are in a room. Your task is to: put a pen on the desk.\n\nAction: go to desk 1' },
      { role: 'assistant', content: 'You arrive at desk 1. On the desk 1, you see a pen 1.' },
      { role: 'user', content: 'Action: take pen 1 from desk 1' },
      { role: 'assistant', content: 'You pick up the pen 1 from the desk 1.' },
      { role: 'user', content: 'Action: look' },
    ]);
  });

  it('a training row and the prompt of any of its steps share the prompt as a prefix', () => {
    const row = worldModelRowMessages(req, 'You are facing desk 1.', { layout: 'episode' });
    for (let k = 0; k < 3; k++) {
      const prompt = worldModelPromptMessages({ system: 'WORLD', history: history.slice(0, 2 + 2 * k), action: ['go to desk 1', 'take pen 1 from desk 1', 'look'][k]! }, { layout: 'episode' });
      expect(row.slice(0, prompt.length)).toEqual(prompt);
    }
    expect(worldModelLayoutOf(row)).toBe('episode');
  });

  it('parses its own rows back, and windows drop the oldest steps whole and say so', () => {
    const row = worldModelRowMessages(req, 'You are facing desk 1.', { layout: 'episode' });
    const view = parseEpisodeRow(row)!;
    expect(view.steps.map((s) => s.action)).toEqual(['go to desk 1', 'take pen 1 from desk 1', 'look']);
    expect(episodeMessages(view)).toEqual(row);
    const w = episodeMessages(view, 1);
    expect(w).toEqual([
      { role: 'system', content: 'WORLD' },
      { role: 'user', content: 'You are in a room. Your task is to: put a pen on the desk.\n\n[2 earlier steps not shown]\n\nAction: look' },
      { role: 'assistant', content: 'You are facing desk 1.' },
    ]);
    // A window of a window counts every step it left out.
    expect(episodeMessages(parseEpisodeRow(episodeMessages(view, 2))!, 1)).toEqual(w);
    // The inference prompt windowed the same way is the window's prefix.
    expect(worldModelPromptMessages(req, { layout: 'episode', keepSteps: 0 })).toEqual(w.slice(0, 2));
  });

  it("episodeStepRows: one row per step, each ending on its observation, its prompt that step's prompt", () => {
    const row = worldModelRowMessages(req, 'You are facing desk 1.', { layout: 'episode' });
    const steps = episodeStepRows(row);
    expect(steps.map((m) => m.length)).toEqual([3, 5, 7]);
    expect(steps[2]).toEqual(row);
    expect(steps[1]!.slice(0, -1)).toEqual(worldModelPromptMessages({ system: 'WORLD', history: history.slice(0, 4), action: 'take pen 1 from desk 1' }, { layout: 'episode' }));
    expect(() => episodeStepRows(worldModelRowMessages(req, 'x', { layout: 'transition' }))).toThrow(/not an episode-layout row/);
  });

  it('fitEpisodeWindow keeps as many recent steps as fit', () => {
    const view = parseEpisodeRow(worldModelRowMessages(req, 'You are facing desk 1.', { layout: 'episode' }))!;
    const chars = (m: ChatMessage[]) => m.reduce((a, x) => a + x.content.length, 0);
    const limit = chars(episodeMessages(view, 2));
    expect(fitEpisodeWindow(view, (m) => (chars(m) <= limit ? m.length : undefined))).toEqual({ value: 5, keptSteps: 2 });
    expect(fitEpisodeWindow(view, () => undefined)).toBeUndefined();
  });

  it('says which message breaks the episode shape', () => {
    expect(() => worldModelPromptMessages({ system: 'S', history: [history[0]!, history[2]!], action: 'a' }, { layout: 'episode' })).toThrow(/history\[1\] must be the first user turn/);
    expect(() => worldModelPromptMessages({ system: 'S', history: history.slice(0, 3), action: 'a' }, { layout: 'episode' })).toThrow(/history\[3\] must be the observation/);
  });
});
