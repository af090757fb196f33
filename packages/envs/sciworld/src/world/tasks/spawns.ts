// World edits several task families make: a thing inside a room's appliance, a pair of answer
// boxes, a newly made animal, and the real tasks' list of animals.
import { animalStageName } from '../animals.js';
import type { RoomName, Spawn } from '../layout.js';
import type { Contents } from './variation.js';

/** Puts a thing inside the room's appliance of that kind (the base world must have one). */
export const inAppliance = (room: RoomName, kind: string, s: Spawn) => (c: Contents) => {
  const app = c[room].find((x) => x.kind === kind);
  if (!app) throw new Error(`sciworld: base world lacks a ${kind} in the ${room}`);
  (app.contents ??= []).push(s);
};

/** The answer boxes' colours in the real tasks' order; a task's box pair is two neighbours of it. */
export const ANSWER_BOX_COLORS = ['red', 'green', 'blue', 'orange', 'yellow', 'purple'];

/** Two boxes named "<colour> box" in the room, tagged boxA and boxB; returns their names. */
export function addBoxes(contents: Contents, room: RoomName, pair: [string, string]): [string, string] {
  const names: [string, string] = [`${pair[0]} box`, `${pair[1]} box`];
  contents[room].push({ kind: 'box', name: names[0], tags: ['boxA'] }, { kind: 'box', name: names[1], tags: ['boxB'] });
  return names;
}

/**
 * The real tasks' list of animals, in its order (the find tasks, both life-stage tasks' distractors
 * and identify-life-stages-1's variations all start from it), by their real names (the toad is a
 * "common toad"). A find task's set i shuffles it and the plant list with java.util.Random(i) and
 * keeps the first three of each.
 */
export const TASK_ANIMALS = ['butterfly', 'moth', 'frog', 'common toad', 'giant tortoise', 'turtle', 'crocodile', 'parrot', 'dove', 'blue jay', 'elephant', 'brown bear', 'beaver', 'wolf'];

/** A newly made animal: at the first stage of its life cycle (or `stage`), named as that stage names it. */
export function animal(species: string, stage = 0, extra: Partial<Spawn> = {}): Spawn {
  return { kind: 'animal', species, stage, shown: animalStageName(species, stage), ...extra };
}
