import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { PaperRowError } from './located-error.js';
import { chatMessagesOf, comparePromptSet, extractPromptSet, systemPromptOf, type PromptRow } from './prompt-rows.js';
import { sharedDataFiles, tempJsonlFile } from './testing.js';
import { renderTemplate, worldModelTemplate } from './prompts.js';
import { refuseServerExtras } from './suite.js';

// Synthetic rows (text written here): the WM prompt is "Room: <room>. Exits: <exits>."
const wmText = (room: string, exits: string) => `Room: ${room}. Exits: ${exits}.`;
function row(where: string, room: string, exits: string, opts: { agent?: string; ours?: string; fail?: boolean } = {}): PromptRow {
  return {
    where,
    agentSystem: opts.agent ?? 'Be an agent.',
    worldModel: {
      theirs: wmText(room, exits),
      slots: () => [
        ['room', room],
        ['exits', exits],
      ],
      ours: (set) => {
        if (opts.fail) throw new Error('no such task here');
        return renderTemplate(worldModelTemplate(set), { room: opts.ours ?? room, exits });
      },
    },
  };
}

describe('extractPromptSet / comparePromptSet', () => {
  it('derive both templates and count identical rows, differences and rows we cannot render', () => {
    const rows = [row('f:1', 'hall', 'north'), row('f:2', 'den', 'south, east', { ours: 'kitchen' }), row('f:3', 'attic', 'down', { fail: true }), row('f:4', 'cellar', 'up', { agent: 'Other.' })];
    const { set, disagreeing } = extractPromptSet('toy', ['/x/f.jsonl'], rows);
    expect(set.worldModel!.parts).toEqual([{ text: 'Room: ' }, { slot: 'room' }, { text: '. Exits: ' }, { slot: 'exits' }, { text: '.' }]);
    expect(disagreeing).toEqual({ agentSystem: ['f:4'], worldModel: [] });
    expect(set.source).toEqual({ files: ['f.jsonl'], agentSystem: { examples: 4, agreeing: 3 }, worldModel: { examples: 4, agreeing: 4 } });
    const cmp = comparePromptSet(rows, set, 'Be an agent.');
    expect(cmp).toEqual({
      rows: 4,
      agentSystemIdentical: 3,
      worldModelIdentical: 2,
      unavailable: [{ where: 'f:3', why: 'no such task here' }],
      firstDifferences: [
        { where: 'f:2', prompt: 'worldModel', offset: 6 },
        { where: 'f:4', prompt: 'agentSystem', offset: 0 },
      ],
    });
  });

  it('rows without a system prompt or slot values count as disagreeing; rows without a WM prompt give no WM template', () => {
    const missing: PromptRow = { ...row('f:2', 'den', 'up'), agentSystem: undefined, worldModel: { ...row('f:2', 'den', 'up').worldModel!, slots: () => undefined } };
    const { set, disagreeing } = extractPromptSet('toy', [], [row('f:1', 'hall', 'north'), missing]);
    expect(disagreeing).toEqual({ agentSystem: ['f:2'], worldModel: ['f:2'] });
    expect(set.source.worldModel).toEqual({ examples: 2, agreeing: 1 });
    const agentOnly = extractPromptSet('toy', [], [{ where: 'f:1', agentSystem: 'A.' }]);
    expect(agentOnly.set.worldModel).toBeUndefined();
    expect(comparePromptSet([{ where: 'f:1', agentSystem: 'A.' }], agentOnly.set, 'A.')).toMatchObject({ agentSystemIdentical: 1, worldModelIdentical: 0 });
  });
});

describe('row helpers', () => {
  it('chatMessagesOf reads a list or its JSON text; systemPromptOf is a leading system message', () => {
    const list = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'U' },
    ];
    expect(chatMessagesOf(list)).toEqual(list);
    expect(chatMessagesOf(JSON.stringify(list))).toEqual(list);
    expect(chatMessagesOf('[')).toBeUndefined();
    expect(chatMessagesOf([{ role: 'user' }])).toBeUndefined();
    expect(systemPromptOf(list as never)).toBe('S');
    expect(systemPromptOf([{ role: 'user', content: 'U' }])).toBeUndefined();
    expect(new PaperRowError('f:3: messages', 'bad')).toMatchObject({ name: 'PaperRowError', where: 'f:3: messages', badInput: true, message: 'f:3: messages: bad' });
  });

  it('refuseServerExtras rejects imported games and prompt sets, naming the env', async () => {
    expect(refuseServerExtras('toy', {})).toBeUndefined();
    await expect(refuseServerExtras('toy', { gamesFile: 'g.jsonl' })).rejects.toThrow('toy has no imported games');
    await expect(refuseServerExtras('toy', { prompts: extractPromptSet('toy', [], [{ where: 'r', agentSystem: 'A.' }]).set })).rejects.toThrow('the toy server serves no prompts');
  });

  it('sharedDataFiles: the paths when present; one printed reason when absent; an error under CI=true', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shared-')) + '/';
    writeFileSync(dir + 'a.jsonl', '');
    expect(sharedDataFiles(dir, ['a.jsonl'], 'rows')).toEqual([dir + 'a.jsonl']);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const ci = process.env.CI;
    try {
      process.env.CI = 'false';
      expect(sharedDataFiles(dir, ['a.jsonl', 'b.jsonl'], 'rows')).toBeUndefined();
      expect(log).toHaveBeenCalledWith(`skipping: rows are not at ${dir} (missing b.jsonl)`);
      process.env.CI = 'true';
      expect(() => sharedDataFiles(dir, ['b.jsonl'], 'rows')).toThrow(/CI must have them/);
    } finally {
      if (ci === undefined) delete process.env.CI;
      else process.env.CI = ci;
      log.mockRestore();
    }
  });

  it('tempJsonlFile writes one JSON value a line', () => {
    expect(readFileSync(tempJsonlFile([{ a: 1 }, 'x']), 'utf8')).toBe('{"a":1}\n"x"\n');
  });
});
