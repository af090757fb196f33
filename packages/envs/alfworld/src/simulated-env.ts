// SimulatedAlfworldEnv: the world model (plus the deterministic local responder) behind TextEnv.
// The agent cannot tell it from the real engine: same reset text, same user-turn shape, same
// success rule, admissible commands rebuilt from the replayed state after every step.
import type { ChatMessage, Observation, StepResult, TaskRef, TextEnv, WorldModel, SimulatedEnvOptions as CommonSimulatedEnvOptions } from '@diffworld/env-core';
import { AlfworldGame } from './engine/game.js';
import { ENV_NAME, cachedGame, goalMeta } from './engine/splits.js';
import { AGENT_SYSTEM_PROMPT, formatUserTurn } from './harness/agent.js';
import { replayBelief } from './harness/belief.js';
import { respond, simulatedAdmissible } from './harness/responder.js';
import { checkGoalSatisfied, type GoalMeta } from './harness/reward.js';
import { bakeScene, type BakedScene } from './harness/scene-prompt.js';
import { cleanWorldModelOutput, initialWorldModelPrompt, stepWorldModelPrompt } from './harness/wm-prompt.js';
import { NOTHING_HAPPENS } from './world/text.js';
import { GameNotRunningError } from './env.js';

/** `useResponder` is the reference's ALFWORLD_WM_GUARD=1 (default on); false sends every action to the WM. */
export interface SimulatedEnvOptions extends CommonSimulatedEnvOptions {
  /** `initial`: the task's grounded prompt (as in corpus rows); `step`: the per-step state prompt. */
  prompt?: 'initial' | 'step';
}

interface Episode {
  scene: BakedScene;
  meta: GoalMeta;
  system: string;
  history: ChatMessage[];
  won: boolean;
}

export class SimulatedAlfworldEnv implements TextEnv {
  readonly name = ENV_NAME;
  private ep: Episode | undefined;
  /** How many steps each source answered (local responder vs world model). */
  readonly counts = { local: 0, wm: 0 };

  constructor(private readonly wm: WorldModel, private readonly opts: SimulatedEnvOptions = {}) {}

  async reset(task: TaskRef): Promise<Observation> {
    const spec = cachedGame(task);
    const game = new AlfworldGame(spec);
    const scene = bakeScene(spec);
    const text = game.intro();
    const admissible = game.admissibleCommands();
    this.ep = {
      scene,
      meta: goalMeta(task),
      system: initialWorldModelPrompt(scene),
      history: [
        { role: 'system', content: AGENT_SYSTEM_PROMPT },
        { role: 'user', content: formatUserTurn(text, admissible) },
      ],
      won: false,
    };
    return { text, goal: spec.goal.text, admissible };
  }

  /** The conversation so far, as the world model sees it in "State: …". */
  get history(): readonly ChatMessage[] {
    return this.ep?.history ?? [];
  }

  async step(action: string): Promise<StepResult> {
    const ep = this.ep;
    if (!ep) throw new GameNotRunningError();
    const local = this.opts.useResponder === false ? undefined : respond(ep.scene, ep.history, action);
    let text: string;
    if (local !== undefined) {
      text = local;
      this.counts.local++;
    } else {
      const system = this.opts.prompt === 'step' ? stepWorldModelPrompt(replayBelief(ep.scene, ep.history), action) : ep.system;
      const out = await this.wm.predict({ system, history: ep.history.slice(), action }, this.opts.sampling);
      text = cleanWorldModelOutput(out.text);
      this.counts.wm++;
    }
    ep.history.push({ role: 'assistant', content: `Action: ${action}` });
    const belief = replayBelief(ep.scene, [...ep.history, { role: 'user', content: text }]);
    const admissible = simulatedAdmissible(belief);
    ep.history.push({ role: 'user', content: formatUserTurn(text, admissible) });
    const won = checkGoalSatisfied(ep.meta, ep.history);
    const newly = won && !ep.won;
    ep.won = won;
    return {
      observation: { text, admissible },
      reward: newly ? 1 : 0,
      done: won,
      info: { score: won ? 1 : 0, won, valid: text !== NOTHING_HAPPENS, via: local !== undefined ? 'local' : 'wm' },
    };
  }

  admissibleActions(): string[] {
    return this.ep ? simulatedAdmissible(replayBelief(this.ep.scene, this.ep.history)) : [];
  }

  async close(): Promise<void> {
    this.ep = undefined;
  }
}
