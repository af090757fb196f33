// Public API of @diffworld/sciworld: the ScienceWorld engine, its tasks and expert, and the paper's
// SciWorld harness (agent prompt, parser, world-model prompts, responder, reward, simulated env,
// corpus rows, HTTP env server).
export { sciworldSuite, SCIWORLD_MAX_STEPS } from './suite.js';
export { sciworldTasks } from './world/tasks/split-tasks.js';
export { SciworldEnv, type SciworldEnvOptions } from './env.js';
export { Game, NO_SIMPLIFICATIONS, type Simplifications, type GameStep, type GameOptions } from './engine/game.js';
export { TASKS, SCIWORLD_SPLITS, splitVariations, taskInfo, type TaskInfo, type SciworldSplit } from './world/tasks/catalog.js';
export { loadTask, isImplemented, resolveSimplifications, type SimplificationPreset, type LoadedTask } from './world/tasks/setup.js';
export { expertActions, ExpertError } from './engine/expert/expert.js';
export { AGENT_SYSTEM_PROMPT, taskUserMessage, frameObservation, INVALID_ACTION_MESSAGE } from './harness/prompt.js';
export { parseSciworldAction } from './harness/parse.js';
export { SCIWORLD_PROMPT_SLOTS, SCIWORLD_WM_SLOTS, WALK_ROOMS, actionTemplates, worldModelSlots } from './harness/prompt-set.js';
export { extractSciworldPrompts, compareSciworldPrompts } from './paper/prompts.js';
export { readSciworldRows, parseSciworldRow, type SciworldPaperRow } from './paper/rows.js';
export { worldModelPrompt, actionWorldModelPrompt, taskSnapshot, currentRoom, type TaskSnapshot } from './harness/wm-prompt.js';
export { sciworldLocalResponder, trackInventory } from './harness/responder.js';
export { sciworldReward, replayScore, shapeReward, repetitionCount, trajectoryActions } from './harness/reward.js';
export { SimulatedSciworldEnv, cleanWorldModelOutput, shouldStop, type SimulatedEnvOptions } from './simulated-env.js';
export { corpusRows, episodeRows, worldModelUserTurn, type CorpusRow } from './corpus.js';
export { startSciworldServer, parseTaskId, type SciworldServerOptions } from './server.js';
export { expertEpisode, playActions } from './episodes.js';
