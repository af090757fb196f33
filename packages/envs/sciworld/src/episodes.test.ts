import { describe, expect, it } from 'vitest';
import { parseEpisodeRecord } from '@diffworld/env-core';
import { expertEpisode, playActions } from './episodes.js';
import { sciworldTasks } from './world/tasks/split-tasks.js';

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
