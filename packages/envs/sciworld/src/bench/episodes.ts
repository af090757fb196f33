// One unit of bench work: plan with the expert and play the episode on a fresh engine.
import { expertActions } from '../engine/expert/expert.js';
import { loadTask } from '../world/tasks/setup.js';

export interface EpisodeJob {
  task: string;
  variation: number;
}

export interface EpisodeTally {
  episodes: number;
  steps: number;
  wins: number;
}

export function runEpisodes(batch: EpisodeJob[]): EpisodeTally {
  const tally: EpisodeTally = { episodes: 0, steps: 0, wins: 0 };
  for (const job of batch) {
    const { actions } = expertActions(job.task, job.variation);
    const { game } = loadTask(job.task, job.variation);
    for (const a of actions) game.step(a);
    tally.episodes++;
    tally.steps += actions.length;
    if (game.goals.completed()) tally.wins++;
  }
  return tally;
}
