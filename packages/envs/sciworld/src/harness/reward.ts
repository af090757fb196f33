// The reference SciWorld reward: replay the trajectory's actions on a real engine (theirs: a
// ScienceWorld server; ours: this package's engine, in-process and deterministic), take the final
// score / 100, then apply the reference's shaping (clip failures, penalise no-focus and loops).
import type { ChatMessage, TaskRef } from '@diffworld/env-core';
import { loadTask, type SimplificationPreset } from '../world/tasks/setup.js';
import { parseSciworldAction } from './parse.js';

export function trajectoryActions(trajectory: ChatMessage[]): string[] {
  return trajectory
    .filter((m) => m.role === 'assistant')
    .map((m) => parseSciworldAction(m.content, { allowNumber: true }))
    .filter((a): a is string => a !== undefined);
}

/** Replays actions on the engine; returns the final score (−100..100). */
export function replayScore(task: TaskRef, actions: string[], preset: SimplificationPreset = 'easy'): number {
  const { game } = loadTask(task.taskType, task.seed, preset);
  let score = 0;
  for (const a of actions) {
    const r = game.step(a);
    score = r.score;
    if (r.done) break;
  }
  return score;
}

/** Number of AAA triples plus ABAB windows (the reference's repetition count). */
export function repetitionCount(actions: string[]): number {
  let n = 0;
  for (let i = 2; i < actions.length; i++) if (actions[i] === actions[i - 1] && actions[i] === actions[i - 2]) n++;
  for (let i = 3; i < actions.length; i++) {
    const [a, b, c, d] = [actions[i - 3], actions[i - 2], actions[i - 1], actions[i]];
    if (a === c && b === d && a !== b) n++;
  }
  return n;
}

export function shapeReward(score: number, actions: string[]): number {
  let reward = score / 100;
  if (reward < 0) reward = score <= -50 ? -0.2 : Math.max(reward, -0.1);
  if (!actions.some((a) => a.toLowerCase().startsWith('focus')) && actions.length >= 10) reward = Math.min(reward, -0.15);
  if (actions.length <= 2 && reward < 0) reward = Math.min(reward * 1.5, -0.1);
  const rep = repetitionCount(actions);
  if (rep > 0) reward *= Math.max(0.3, 1 - 0.15 * rep);
  return Math.min(1, Math.max(-0.2, reward));
}

export function sciworldReward(trajectory: ChatMessage[], task: TaskRef): number {
  const actions = trajectoryActions(trajectory);
  if (actions.length === 0) return 0;
  return shapeReward(replayScore(task, actions), actions);
}
