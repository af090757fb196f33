// Builds a playable game for (task, variation, simplifications): base world + the task's edits.
import { Rng, hashSeed } from '@diffworld/env-core';
import { baseWorld } from '../layout.js';
import { drawHouse } from '../house.js';
import { World } from '../../engine/world.js';
import { Game, NO_SIMPLIFICATIONS, type Simplifications } from '../../engine/game.js';
import { BUILDERS } from './builders.js';
import type { VariationBuild } from './variation.js';
import { taskInfo } from './catalog.js';

export type SimplificationPreset = 'easy' | 'none' | Partial<Simplifications>;

/** The `easy` preset: teleport, open doors, self-watering pots, no electrical actions except electrical tasks. */
export function resolveSimplifications(preset: SimplificationPreset, taskName: string): Simplifications {
  if (preset === 'none') return { ...NO_SIMPLIFICATIONS };
  if (preset === 'easy') return { teleportAction: true, openDoors: true, selfWateringFlowerPots: true, openContainers: false, noElectricalAction: !taskInfo(taskName).electrical };
  return { ...NO_SIMPLIFICATIONS, ...preset };
}

export function isImplemented(taskName: string): boolean {
  return taskName in BUILDERS;
}

export interface LoadedTask {
  game: Game;
  build: VariationBuild;
  taskName: string;
  variation: number;
}

export function loadTask(taskName: string, variation: number, preset: SimplificationPreset = 'easy', stepLimit = 100): LoadedTask {
  const info = taskInfo(taskName);
  const builder = BUILDERS[info.name];
  if (!builder) throw new Error(`sciworld: task '${info.name}' is not implemented yet (implemented: ${Object.keys(BUILDERS).join(', ')})`);
  if (!Number.isInteger(variation) || variation < 0 || variation >= info.variations) throw new RangeError(`sciworld: task '${info.name}' has variations 0..${info.variations - 1}, got ${variation}`);
  const rng = new Rng(hashSeed(`sciworld:${info.name}:${variation}`));
  const house = drawHouse(variation);
  const contents = baseWorld(house);
  const build = builder(variation, contents, rng);
  const simplifications = resolveSimplifications(preset, info.name);
  const world = World.build(contents, { openDoors: simplifications.openDoors, agentRoom: house.startRoom, inventory: [{ kind: 'food', name: 'orange' }] });
  const game = new Game({ world, description: build.description, goals: build.goals }, { simplifications, stepLimit });
  return { game, build, taskName: info.name, variation };
}
