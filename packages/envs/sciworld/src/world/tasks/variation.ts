// What a task builder is: a variation index in, the world edits, the exact task description, the goal
// sequence and a plan hint for the expert out; and the grid decoding every task's variations use.
import type { Rng } from '@diffworld/env-core';
import type { RoomName, Spawn } from '../layout.js';
import type { GoalSpec } from '../../engine/goals.js';

export type Plan =
  | { kind: 'state'; goal: 'boil' | 'melt' | 'freeze' | 'change'; material: string }
  | { kind: 'thermometer'; threshold: number; above: string; below: string; boxRoom: RoomName }
  | { kind: 'meltingPoint'; subject: string; meltingPoint: number; threshold: number; above: string; below: string; boxRoom: RoomName }
  | { kind: 'power'; source?: string }
  | { kind: 'conductivity'; conductive: string; nonconductive: string; subject?: string; answer?: boolean }
  | { kind: 'find'; what: FindWhat; box: string; boxRoom: RoomName }
  | { kind: 'lifespan'; order: string[] }
  | { kind: 'paint'; inputs: [string, string]; product: string; then?: { input: string; product: string } }
  | { kind: 'grow'; species: string; seedRoom: RoomName; fruit?: boolean }
  | { kind: 'chemistry'; product: string; room: RoomName; inputs: string[] }
  | { kind: 'stages'; tags: string[] }
  /** Focus on one animal at each of its first `stages` life stages, waiting while it ages. */
  | { kind: 'aging'; species: string; stages: number }
  | { kind: 'incline'; answer: string }
  | { kind: 'genetics'; answer: string };

export type FindWhat = 'living' | 'nonliving' | 'plant' | 'animal';

export interface VariationBuild {
  description: string;
  goals: GoalSpec;
  plan: Plan;
}

export type Contents = Record<RoomName, Spawn[]>;
export type Builder = (variation: number, contents: Contents, rng: Rng) => VariationBuild;

/**
 * Mixed-radix decoding the way ScienceWorld enumerates its variations: nested loops over the axes
 * in order, the last axis fastest (index = ((a0 · n1) + a1) · n2 + a2 …).
 */
export function decodeLastFastest(v: number, sizes: number[]): number[] {
  const out = new Array<number>(sizes.length);
  for (let i = sizes.length - 1; i >= 0; i--) {
    out[i] = v % sizes[i]!;
    v = Math.floor(v / sizes[i]!);
  }
  return out;
}

/** The tag of the thing a task is about (its focus target, unless the task says otherwise). */
export const target = ['target'];
