import { describe, expect, it } from 'vitest';
import { Rng, type ChatMessage, type TaskRef, type WorldModel } from '@diffworld/env-core';
import { parseSciworldAction } from './parse.js';
import { sciworldLocalResponder, trackInventory } from './responder.js';
import { repetitionCount, sciworldReward, shapeReward } from './reward.js';
import { actionWorldModelPrompt, currentRoom, taskSnapshot, worldModelPrompt } from './wm-prompt.js';
import { corpusRows, episodeRows, taskCorpusRows, worldModelUserTurn } from '../corpus.js';
import { SimulatedSciworldEnv, cleanWorldModelOutput, shouldStop } from '../simulated-env.js';
import { AGENT_SYSTEM_PROMPT, taskUserMessage } from './prompt.js';
import { expertActions } from '../engine/expert/expert.js';
import { loadTask } from '../world/tasks/setup.js';
import { sciworldSuite } from '../suite.js';

const task: TaskRef = { env: 'sciworld', split: 'train', id: 'boil_v0', taskType: 'boil', seed: 0 };

describe('parseSciworldAction', () => {
  it.each([
    ['look around', 'look around'],
    ['<think>hmm</think>\nAction: teleport to kitchen', 'teleport to kitchen'],
    ['```\nopen fridge\n```', 'open fridge'],
    ['> pick up thermometer.', 'pick up thermometer'],
    ['"focus on water"', 'focus on water'],
    ['[INST] Command: wait1', 'wait1'],
    ['Let me think about the task first', undefined],
    ['I need to find water', undefined],
    ['3', undefined],
    ['x'.repeat(201), undefined],
    ['', undefined],
  ])('%j → %j', (input, out) => {
    expect(parseSciworldAction(input)).toBe(out);
  });
  it('accepts a number while an ambiguity prompt waits', () => {
    expect(parseSciworldAction('1', { allowNumber: true })).toBe('1');
  });
});

describe('local responder', () => {
  const system = worldModelPrompt(task);
  const history: ChatMessage[] = [
    { role: 'system', content: AGENT_SYSTEM_PROMPT },
    { role: 'user', content: 'Task: t\n\nYou are in: x' },
    { role: 'assistant', content: 'pick up thermometer' },
    { role: 'user', content: 'You move the thermometer to the inventory.' },
  ];
  const ask = (action: string) => sciworldLocalResponder({ system, history, action, task });
  it('answers the deterministic actions as the reference table says', () => {
    expect(ask('teleport to kitchen')).toBe('You teleport to the kitchen.');
    expect(ask('wait1')).toBe('(1 tick passes)');
    expect(ask('inventory')).toBe('In your inventory, you see: thermometer');
    expect(ask('focus on agent')).toBe('No known action matches that input.');
    expect(ask('focus on unobtainium')).toBe('No known action matches that input.');
  });
  it('defers everything else to the world model', () => {
    expect(ask('focus on water')).toBeUndefined();
    expect(ask('open fridge')).toBeUndefined();
  });
  it('tracks the inventory through pick up and put', () => {
    expect(trackInventory([...history, { role: 'assistant', content: 'move thermometer to table' }, { role: 'user', content: 'You move the thermometer to the table.' }])).toEqual([]);
  });
});

describe('reward', () => {
  it('replays the expert on the engine and pays 1.0', () => {
    const actions = expertActions('find-plant', 3).actions;
    const traj: ChatMessage[] = actions.flatMap((a) => [{ role: 'assistant', content: a } as ChatMessage, { role: 'user', content: 'obs' } as ChatMessage]);
    expect(sciworldReward(traj, { ...task, id: 'find-plant_v3', taskType: 'find-plant', seed: 3 })).toBe(1);
    // boil's expert waits without loops (wait1, wait1, look at …), so no loop penalty applies.
    const boil = expertActions('boil', 0).actions.flatMap((a) => [{ role: 'assistant', content: a } as ChatMessage]);
    expect(sciworldReward(boil, task)).toBe(1);
    // The same plan with its waits as plain repeated wait1 is penalised (AAA triples).
    const looped = boil.map((m) => (m.content.startsWith('look at') ? { ...m, content: 'wait1' } : m));
    expect(sciworldReward(looped, task)).toBeLessThan(1);
  });
  it('clips failures and penalises loops and missing focus', () => {
    expect(shapeReward(-100, ['focus on air', 'look around', 'wait'])).toBe(-0.2);
    expect(
      shapeReward(
        20,
        Array(12)
          .fill('look around')
          .map((a, i) => `${a}${i}`),
      ),
    ).toBe(-0.15);
    expect(repetitionCount(['a', 'a', 'a', 'b', 'a', 'b'])).toBe(2);
    expect(shapeReward(50, ['focus on x', 'a', 'a', 'a'])).toBeCloseTo(0.425);
    expect(sciworldReward([], task)).toBe(0);
  });
});

describe('world-model prompts', () => {
  it('uses the grounding section layout and the whole room map', () => {
    const p = worldModelPrompt(task);
    const headers = p.split('\n').filter((l) => l.startsWith('## ') || l.startsWith('PREDICTION TARGET'));
    expect(headers.map((h) => h.split(':')[0])).toEqual(['## ENVIRONMENT STATE', '## TASK CONTEXT', '## DOMAIN RULES', '## STEERING DIRECTIVES', 'PREDICTION TARGET']);
    expect(p).toContain('[kitchen]\nThis room is called the kitchen. In it, you see: a substance called air');
    expect(p).not.toContain('the agent a');
  });
  it('per-call prompt names the current room and the active action', () => {
    const snap = taskSnapshot(task);
    const h: ChatMessage[] = [{ role: 'user', content: 'You teleport to the workshop.' }];
    expect(currentRoom(h, 'x')).toBe('workshop');
    const p = actionWorldModelPrompt(snap, h, 'look around', []);
    expect(p).toContain('The agent is currently in: workshop.');
    expect(p.endsWith("PREDICTION TARGET: The ScienceWorld observation text produced by the action 'look around' given the current environment state.")).toBe(true);
  });
});

describe('corpus rows', () => {
  it('encodes the state as Python json.dumps and targets the engine observation', () => {
    expect(worldModelUserTurn([{ role: 'user', content: 'café\n' }], 'look around')).toBe(
      'State: [{"role": "user", "content": "caf\\u00e9\\n"}]\n\nAction: [{"role": "assistant", "content": "look around"}]',
    );
    const plant = { ...task, id: 'find-plant_v3', taskType: 'find-plant', seed: 3 };
    const system = worldModelPrompt(plant);
    const expert = episodeRows(plant, system);
    const rows = [...expert, ...episodeRows(plant, system, new Rng(1).fork('a')), ...episodeRows(plant, system, new Rng(1).fork('b'))];
    expect(expert.length).toBe(expertActions('find-plant', 3).actions.length);
    expect(rows.length).toBeGreaterThan(expert.length * 2);
    for (const r of rows) {
      expect(r.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(r.messages[1]!.content.startsWith('State: [{"role": "system", "content": "You are an agent in ScienceWorld')).toBe(true);
    }
    const { game } = loadTask('find-plant', 3);
    const first = expertActions('find-plant', 3).actions[0]!;
    expect(expert[0]!.messages[2]!.content).toBe(game.step(first).observation);
    // The episode layout: one row whose observations are the transition rows' targets, in order.
    const [episode, ...more] = episodeRows(plant, system, new Rng(1).fork('a'), undefined, 'episode');
    expect(more).toEqual([]);
    const perturbed = episodeRows(plant, system, new Rng(1).fork('a'));
    expect(episode!.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(perturbed.map((r) => r.messages[2]!.content));
    expect(episode!.messages[0]!.content).toBe(system);
    expect(episode!.messages[1]!.content.startsWith('Task: ')).toBe(true);
  });
});

describe('corpusRows', () => {
  it("cycles the split's tasks: expert episodes first, then perturbed copies, as chat rows", () => {
    const tasks = sciworldSuite
      .tasks('dev')
      .filter((t) => t.taskType === 'find-animal')
      .slice(0, 2);
    const rows = [...taskCorpusRows(tasks, 3, 5)];
    const kinds = new Set(rows.map((r) => `${String(r.meta!.task_id)}:${String(r.meta!.episode)}`));
    expect(kinds).toEqual(new Set([`${tasks[0]!.id}:expert`, `${tasks[1]!.id}:expert`, `${tasks[0]!.id}:perturbed`]));
    expect(rows.every((r) => r.dataset === 'sciworld' && r.messages.length === 3)).toBe(true);
    expect([...taskCorpusRows(tasks, 3, 5)]).toEqual(rows);
    const first = sciworldSuite.tasks('dev')[0]!;
    expect(new Set([...corpusRows({ split: 'dev', episodes: 1, seed: 0 })].map((r) => r.meta!.task_id))).toEqual(new Set([first.id]));
    expect(() => [...corpusRows({ split: 'eval', episodes: 1, seed: 0 })]).toThrow('unknown split "eval" for sciworld');
  });
});

describe('SimulatedSciworldEnv', () => {
  it('plays an episode through responder + world model; an oracle world model gives the real score', async () => {
    // The oracle world model replays the conversation's actions on the real engine.
    const oracle: WorldModel = {
      async predict(req) {
        const { game } = loadTask('boil', 0);
        const actions = req.history.filter((m) => m.role === 'assistant').map((m) => m.content);
        for (const a of actions) if (!game.done) game.step(a);
        // After the real episode ended the oracle has nothing to say (the env falls back).
        return { text: game.done ? '' : `OBSERVATION: ${game.step(req.action).observation}` };
      },
    };
    const env = new SimulatedSciworldEnv(oracle, (t) => sciworldSuite.worldModelPrompt(t));
    const first = await env.reset(task);
    expect(first.goal).toContain('boil water');
    const steps = [];
    const actions = expertActions('boil', 0).actions;
    for (const a of actions) steps.push(await env.step(a));
    // Waits are the responder's ("(1 tick passes)"); everything else came from the oracle world model.
    const conv = env.conversation();
    const waits = actions.filter((a) => a.startsWith('wait')).length;
    expect(waits).toBeGreaterThan(0);
    expect(conv.filter((m) => m.content === '(1 tick passes)').length).toBe(waits);
    expect(steps[0]!.observation.text).toBe('You teleport to the kitchen.');
    expect(steps[6]!.observation.text).toBe('You focus on the water.');
    // The simulated env scores by replaying on the real engine (as the reward does).
    expect(sciworldReward(conv, task)).toBe(1);
    // Looping ends the simulated episode, with the replayed score.
    await env.step('look around');
    await env.step('look around');
    const end = await env.step('look around');
    expect(end.done).toBe(true);
    expect(end.info.score).toBe(100);
  });
  it('cleans outputs and stops on loops', () => {
    expect(cleanWorldModelOutput('<think>x</think>Response: <tool_response>The door is now open.</tool_response>')).toBe('The door is now open.');
    expect(cleanWorldModelOutput('{"observation": "ok"}')).toBe('ok');
    expect(shouldStop(['a', 'a', 'a'])).toBe(true);
    expect(shouldStop(['a', 'b', 'a', 'b'])).toBe(true);
    expect(shouldStop(['a', 'b', 'c'])).toBe(false);
  });
  it('frames the first user turn as the reference does', () => {
    expect(taskUserMessage('D', 'O')).toBe('Task: D\n\nYou are in: O');
  });
});
