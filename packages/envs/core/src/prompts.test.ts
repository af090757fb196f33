import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PromptSetError, deriveTemplate, parsePromptSet, promptSetOf, readPromptSet, renderTemplate, templateSlots, worldModelTemplate, writePromptSet, type TemplateExample } from './prompts.js';
import { firstDifference } from './suite.js';

// Synthetic prompts built here (never any paper text).
const example = (where: string, name: string, place: string, tail = 'Be brief.'): TemplateExample => ({
  where,
  text: `Hello ${name}!\nYou stand in ${place}.\n${tail}`,
  slots: [
    ['name', name],
    ['place', place],
  ],
});
const SLOTS = { agentSystem: [], worldModel: ['name', 'place'] };

describe('deriveTemplate', () => {
  it('cuts the slot values out and keeps the literals, which reproduce every example', () => {
    const d = deriveTemplate([example('a:1', 'Ann', 'a red room'), example('a:2', 'Bo', 'the hall')], 'wm');
    expect(d.template.parts).toEqual([{ text: 'Hello ' }, { slot: 'name' }, { text: '!\nYou stand in ' }, { slot: 'place' }, { text: '.\nBe brief.' }]);
    expect(d.provenance).toEqual({ examples: 2, agreeing: 2 });
    expect(d.disagreeing).toEqual([]);
    expect(renderTemplate(d.template, { name: 'Cy', place: 'a barn' })).toBe(example('x', 'Cy', 'a barn').text);
    expect(templateSlots(d.template)).toEqual(['name', 'place']);
  });

  it('takes the majority and names the examples that differ or miss a slot value', () => {
    const odd = example('a:3', 'Di', 'a cave', 'Be long.');
    const missing: TemplateExample = { where: 'a:4', text: 'no slots here', slots: [['name', 'Ed']] };
    const d = deriveTemplate([example('a:1', 'Ann', 'x'), odd, example('a:2', 'Bo', 'y'), missing], 'wm');
    expect(d.provenance).toEqual({ examples: 4, agreeing: 2 });
    expect(d.disagreeing).toEqual(['a:4', 'a:3']);
  });

  it('a template without slots is the whole text (a constant prompt)', () => {
    const d = deriveTemplate([{ where: 'r:1', text: 'Fixed.', slots: [] }], 'agent');
    expect(d.template.parts).toEqual([{ text: 'Fixed.' }]);
  });

  it('rejects empty slot values and an empty example list', () => {
    expect(() => deriveTemplate([{ where: 'r:1', text: 'x', slots: [['a', '']] }], 'wm')).toThrow(/r:1: a: a slot value must not be empty/);
    expect(() => deriveTemplate([], 'wm')).toThrow(PromptSetError);
  });
});

describe('prompt files', () => {
  const set = promptSetOf('toy', ['/data/rows.jsonl'], deriveTemplate([{ where: 'r', text: 'Sys.', slots: [] }], 'a'), deriveTemplate([example('r', 'Ann', 'x')], 'wm')).set;

  it('round-trip through an atomic write, keeping only file names as provenance', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompts-'));
    const path = join(dir, 'p.json');
    writePromptSet(path, set);
    expect(set.source.files).toEqual(['rows.jsonl']);
    expect(readPromptSet(path, 'toy', SLOTS)).toEqual(set);
  });

  it('name what is wrong: env, format, unknown slot, bad part, unreadable file', () => {
    expect(() => parsePromptSet({ ...set, env: 'other' }, 'f.json', 'toy', SLOTS)).toThrow(/f.json: env: this prompt set is for "other", not toy/);
    expect(() => parsePromptSet({ ...set, format: 'x' }, 'f.json', 'toy', SLOTS)).toThrow(/f.json: format/);
    expect(() => parsePromptSet(set, 'f.json', 'toy', { agentSystem: [], worldModel: ['name'] })).toThrow(/worldModel.parts\[3\]: unknown slot "place"/);
    expect(() => parsePromptSet({ ...set, agentSystem: { parts: [{ text: 'a', slot: 'b' }] } }, 'f.json', 'toy', SLOTS)).toThrow(/agentSystem.parts\[0\]/);
    const dir = mkdtempSync(join(tmpdir(), 'prompts-'));
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(() => readPromptSet(join(dir, 'bad.json'), 'toy', SLOTS)).toThrow(/bad.json: not JSON/);
    expect(() => readPromptSet(join(dir, 'none.json'), 'toy', SLOTS)).toThrow(/cannot read/);
    expect(readFileSync(join(dir, 'bad.json'), 'utf8')).toBe('{');
  });

  it('a render without a slot value names the slot', () => {
    expect(() => renderTemplate(worldModelTemplate(set), { name: 'Ann' }, 'wm')).toThrow(/wm: place: no value for slot "place"/);
  });

  it('a set may carry only the agent prompt: it round-trips, and asking for its WM template names the env', () => {
    const agentOnly = promptSetOf('toy', ['rows.jsonl'], deriveTemplate([{ where: 'r', text: 'Sys.', slots: [] }], 'a')).set;
    expect(agentOnly.worldModel).toBeUndefined();
    expect(agentOnly.source.worldModel).toBeUndefined();
    expect(parsePromptSet(JSON.parse(JSON.stringify(agentOnly)), 'f.json', 'toy', SLOTS)).toEqual(agentOnly);
    expect(() => worldModelTemplate(agentOnly)).toThrow(/toy prompt set: it carries no world-model template/);
  });
});

describe('firstDifference', () => {
  it('is the first differing offset, or the shorter length', () => {
    expect(firstDifference('abc', 'abd')).toBe(2);
    expect(firstDifference('ab', 'abc')).toBe(2);
    expect(firstDifference('same', 'same')).toBe(4);
  });
});
