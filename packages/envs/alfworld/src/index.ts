// Public API of @diffworld/alfworld: the ALFWorld engine, its expert, splits, and the paper's harness.
export { AlfworldGame } from './engine/game.js';
export type { GameOptions, ObjectState, StepOutcome } from './engine/game.js';
export type { GameSpec, GoalSpec, ObjectSpec, ReceptacleSpec } from './engine/scene.js';
export { generateGame, floorplanLayout, GenerationError } from './engine/generate.js';
export { expertAction, runExpert } from './engine/expert.js';
export { splitTasks, gameForTask, isSplit, UnknownSplitError, ENV_NAME } from './engine/splits.js';
export { AlfworldEnv, GameNotRunningError } from './env.js';
export { buildScene } from './testing/scenes.js';
export type { SceneSketch } from './testing/scenes.js';
export { TASK_TYPES, TASK_SPECS, SPLITS, SPLIT_COUNTS } from './world/tasks.js';
export type { TaskType, TaskTypeSpec, AlfworldSplit } from './world/tasks.js';
export { TEXT, COMMANDS, NOTHING_HAPPENS, BANNER, listItems } from './world/text.js';
export type { Grammar } from './world/text.js';
