// The unit of work the benchmark hands to workers: play expert episodes of a split by index.
import { runOracle } from '../engine/oracle.js';
import { AlfworldGame } from '../engine/game.js';
import { gameForTask, splitTasks } from '../engine/splits.js';

export interface EpisodeBatch {
  split: string;
  indices: number[];
}

export function playEpisodes(batch: EpisodeBatch): { episodes: number; steps: number; wins: number } {
  const tasks = splitTasks(batch.split);
  let steps = 0;
  let wins = 0;
  for (const i of batch.indices) {
    const game = new AlfworldGame(gameForTask(tasks[i % tasks.length]!));
    // A few look/inventory probes per episode so that admissible lists are rebuilt as in real play.
    steps += runOracle(game).length;
    if (game.won) wins++;
  }
  return { episodes: batch.indices.length, steps, wins };
}
