import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEpisodeRecord } from '@diffworld/env-core';
import { expertEpisode, playActions } from './episodes.js';
import { writeCorpus } from './harness/corpus.js';
import { sciworldTasks } from './suite.js';

describe('episode records', () => {
  it('expert episodes are valid records that win', () => {
    const task = sciworldTasks('dev', ['power-component'])[0]!;
    const rec = expertEpisode(task);
    expect(parseEpisodeRecord(JSON.parse(JSON.stringify(rec))).ok).toBe(true);
    expect(rec).toMatchObject({ env: 'sciworld', split: 'dev', task_id: 'power-component_v10', task_type: 'power-component', score: 100, won: true, reward: 100 });
    expect(rec.messages.length).toBe(2 + 2 * rec.steps);
  });
  it('stops at the end of the episode and records failure', () => {
    const rec = playActions({ env: 'sciworld', split: 'train', id: 'boil_v0', taskType: 'boil', seed: 0 }, ['focus on air', 'look around']);
    expect(rec).toMatchObject({ steps: 1, score: -100, won: false, reward: -100 });
  });
});

describe('writeCorpus', () => {
  it('writes chat JSONL atomically', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sciworld-corpus-'));
    const path = join(dir, 'rows.jsonl');
    const n = await writeCorpus(path, sciworldTasks('test', ['find-living-thing']).slice(0, 2), { perturbed: 1 });
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(n);
    const row = JSON.parse(lines[0]!) as { messages: Array<{ role: string }>; dataset: string };
    expect(row.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(row.dataset).toBe('sciworld');
    expect(readdirSync(dir)).toEqual(['rows.jsonl']);
  });
});
