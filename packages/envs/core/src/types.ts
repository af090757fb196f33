// The contracts every environment, world model and agent runner in DiffWorld speaks.
// Small on purpose (TextWorld's Environment/Agent): anything optional is opt-in.

import type { ChatMessage } from '@diffworld/dataset';

// One message type for the workspace: the dataset package's (every chat row holds them).
export type { ChatMessage, Role } from '@diffworld/dataset';

/**
 * A task split. Each env names its own (ALFWorld: train/eval_in_distribution/
 * eval_out_of_distribution; ScienceWorld: train/dev/test; AppWorld: train/dev/test_normal/
 * test_challenge) in its EnvSuite's `splits`.
 */
export type Split = string;

/** Identifies one playable task (a game file, a ScienceWorld variation, an AppWorld task). */
export interface TaskRef {
  env: string;
  split: Split;
  /** Unique within the env, stable across runs: e.g. "pick_and_place_simple-train-0042". */
  id: string;
  /** The env's task family, e.g. ALFWorld's `pick_heat_then_place_in_recep`. */
  taskType: string;
  /** Seed of the procedural generator that built the task. */
  seed: number;
}

export interface Observation {
  /** The text the agent sees (for the first observation it includes the goal). */
  text: string;
  /** The goal in words, when the env states one. */
  goal?: string;
  /** Commands valid now, when the env can list them. */
  admissible?: string[];
}

export interface StepResult {
  observation: Observation;
  /** Reward of this step (ALFWorld: 1 on the winning step; ScienceWorld: score delta). */
  reward: number;
  done: boolean;
  info: StepInfo;
}

export interface StepInfo {
  /** The env's native score after this step (ALFWorld 0/1, ScienceWorld 0–100, AppWorld TGC). */
  score: number;
  won: boolean;
  /** Whether the action was understood and changed or inspected the world. */
  valid?: boolean;
  [key: string]: unknown;
}

export interface TextEnv {
  readonly name: string;
  reset(task: TaskRef, seed?: number): Promise<Observation>;
  step(action: string): Promise<StepResult>;
  admissibleActions?(): string[];
  close?(): Promise<void>;
}

export interface SampleOptions {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxNewTokens?: number;
  seed?: number;
  /** Diffusion samplers: tokens decoded per block step, confidence threshold, etc. */
  [key: string]: unknown;
}

export interface SampleStats {
  promptTokens?: number;
  completionTokens?: number;
  /** Forward passes spent (diffusion steps or AR steps). */
  forwardPasses?: number;
  latencyMs?: number;
}

export interface WorldModelRequest {
  /** The grounded world-model system prompt. */
  system: string;
  /** The conversation so far, as the agent saw it. */
  history: ChatMessage[];
  action: string;
}

export interface WorldModelResponse {
  text: string;
  stats?: SampleStats;
}

export interface WorldModel {
  predict(req: WorldModelRequest, opts?: SampleOptions): Promise<WorldModelResponse>;
  predictBatch?(reqs: WorldModelRequest[], opts?: SampleOptions): Promise<WorldModelResponse[]>;
  /** Frees what the model holds (a local model's sessions and GPU memory); no predictions after it. */
  close?(): Promise<void>;
}

/** What a local responder sees: the world-model request, plus the task it belongs to. */
export interface ResponderContext extends WorldModelRequest {
  task: TaskRef;
}
