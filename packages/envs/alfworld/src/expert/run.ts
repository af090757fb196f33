// Plays the searching expert in the real engine: each turn it is shown exactly what an agent is
// shown (the user turn of the harness: observation and admissible list) and answers from that.
import type { ChatMessage } from '@diffworld/env-core';
import type { AlfworldGame } from '../engine/game.js';
import { MAX_STEPS } from '../engine/splits.js';
import { formatUserTurn } from '../harness/agent.js';
import { nextCommand } from './policy.js';
import { emptyView, observeUserTurn } from './view.js';

export interface ExpertEpisode {
  actions: string[];
  /** The agent's conversation: the first user turn, then `Action: …` and each answer. */
  messages: ChatMessage[];
  won: boolean;
}

/** Plays the searching expert from the game's start until it wins, gives up or reaches `maxSteps` (the env's 50). */
export function playExpert(game: AlfworldGame, maxSteps = MAX_STEPS): ExpertEpisode {
  const first = formatUserTurn(game.intro(), game.admissibleCommands());
  const messages: ChatMessage[] = [{ role: 'user', content: first }];
  const view = emptyView();
  observeUserTurn(view, undefined, first);
  const actions: string[] = [];
  while (!game.won && actions.length < maxSteps) {
    const action = nextCommand(view);
    if (action === undefined) break;
    const turn = formatUserTurn(game.step(action).feedback, game.admissibleCommands());
    actions.push(action);
    messages.push({ role: 'assistant', content: `Action: ${action}` }, { role: 'user', content: turn });
    observeUserTurn(view, action, turn);
  }
  return { actions, messages, won: game.won };
}
