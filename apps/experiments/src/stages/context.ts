// What every stage of an experiment shares: the resolved settings, the stage runner (and its run
// directory), the env's suite, the real engine (in this thread or in a worker pool), the run's
// metrics file and the log. One context per config; repro's RQ2 makes one per seed over the same
// runner, so stages whose inputs agree across seeds or world models are run once.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EnvSuite, TaskRef } from '@diffworld/env-core';
import { ENV_SUITES } from '@diffworld/envs';
import { type RolloutSource, realEngineSource } from '@diffworld/grpo';
import { type ProviderName, clearSessionCache } from '@diffworld/mdlm-core';
import type { ExperimentConfig } from '../config/schema.js';
import { EnvPool } from '../env-pool.js';
import { ExperimentError } from '../errors.js';
import type { StageRunner } from './runner.js';

export class ExperimentContext {
  readonly suite: EnvSuite;
  private pool: EnvPool | undefined;
  private games: Promise<{ all: TaskRef[]; sha256: string }> | undefined;
  private readonly releaseHooks: (() => void)[] = [];

  constructor(
    readonly config: ExperimentConfig,
    readonly runner: StageRunner,
    readonly log: (line: string) => void = () => {},
  ) {
    this.suite = ENV_SUITES[config.env];
  }

  get provider(): ProviderName | undefined {
    return this.config.provider;
  }

  /** `{ provider }` when the config names one, for option objects. */
  get providerOption(): { provider?: ProviderName } {
    return this.config.provider ? { provider: this.config.provider } : {};
  }

  /** The real engine for rollouts and evaluations: in this thread, or in a pool of envWorkers threads. */
  realSource(): RolloutSource {
    if (this.config.envWorkers > 1) this.pool ??= EnvPool.open(this.config.env, this.config.envWorkers, this.config.eval.games);
    return realEngineSource(this.suite, this.pool);
  }

  /**
   * The eval settings as stage inputs: all but `eval.base`, which says whether the base policy's
   * evaluation runs at all, not how any evaluation plays (so it keys no stage).
   */
  get evalInputs(): Omit<ExperimentConfig['eval'], 'base'> {
    const { base: _, ...settings } = this.config.eval;
    return settings;
  }

  /** The evaluation's held-out split: eval.split, else the suite's evaluation split. */
  get evalSplit(): string {
    return this.config.eval.split ?? this.suite.splits[1]!;
  }

  /**
   * eval.games: the imported real games of `split` (registered with this thread's engine; pool
   * workers register the same file) and the file's sha256, or undefined without the setting. The
   * file is read once per context; bad files fail by name.
   */
  async heldoutGames(split: string): Promise<{ tasks: TaskRef[]; sha256: string } | undefined> {
    const file = this.config.eval.games;
    if (!file) return undefined;
    if (!this.suite.loadGames) throw new ExperimentError('bad_config', `eval.games: ${this.config.env} has no imported games (only alfworld imports the paper's rows)`);
    if (!existsSync(file)) throw new ExperimentError('bad_config', `eval.games: ${file} does not exist (write it with \`diffworld env import ${this.config.env}\`)`);
    this.games ??= this.suite.loadGames(file).then((all) => ({ all, sha256: createHash('sha256').update(readFileSync(file)).digest('hex') }));
    const { all, sha256 } = await this.games;
    const tasks = all.filter((t) => t.split === split);
    if (tasks.length === 0) throw new ExperimentError('bad_config', `eval.games: ${file} holds no ${split} games`);
    return { tasks, sha256 };
  }

  /** One line of the run's metrics.jsonl (training curves, evaluations), for the report's charts. */
  async metric(row: Record<string, unknown>): Promise<void> {
    await appendFile(join(this.runner.root, 'metrics.jsonl'), `${JSON.stringify(row)}\n`);
  }

  /**
   * Releases every compiled graph (mdlm-core's session cache) once a training stage is over: ONNX
   * Runtime's CPU arena keeps a session's peak activations until the session goes, so without this
   * the world model's training graph, SFT's and GRPO's would all stay resident to the end.
   */
  async releaseGraphs(): Promise<void> {
    for (const forget of this.releaseHooks) forget();
    await clearSessionCache();
  }

  /** `forget` drops what holds a compiled graph (a memoised scorer) whenever the graphs are released. */
  onRelease(forget: () => void): void {
    this.releaseHooks.push(forget);
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
  }
}

/** Minutes and seconds for progress lines. */
export const fmt = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)}h${Math.round((s % 3600) / 60)}m` : s >= 60 ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s` : `${s.toFixed(0)}s`);
