import { Rng, type ChatMessage } from '@diffworld/env-core';
import { parseGroundingPrompt } from '@diffworld/dataset';
import { describe, expect, it } from 'vitest';
import { oracleAction } from '../engine/oracle.js';
import { AlfworldGame } from '../engine/game.js';
import { gameForTask, splitTasks } from '../engine/splits.js';
import { SPLITS } from '../world/tasks.js';
import { AGENT_SYSTEM_PROMPT, formatUserTurn, observationOfUserTurn, parseAlfworldAction } from './agent.js';
import { replayBelief } from './belief.js';
import { respond, simulatedAdmissible } from './responder.js';
import { alfworldReward, checkGoalSatisfied, type GoalMeta } from './reward.js';
import { bakeScene, parseBakedScene, renderBakedScene } from './scene-prompt.js';
import { cleanWorldModelOutput, initialWorldModelPrompt, stepWorldModelPrompt } from './wm-prompt.js';
import { buildScene } from '../testing/scenes.js';

describe('agent harness', () => {
  it('formats user turns exactly and recovers the observation', () => {
    const turn = formatUserTurn('You arrive at sofa 1. On the sofa 1, you see nothing.', ['go to bed 1', 'look']);
    expect(turn).toBe('Observation:\nYou arrive at sofa 1. On the sofa 1, you see nothing.\n\nAdmissible commands:\n- go to bed 1\n- look');
    expect(observationOfUserTurn(turn)).toBe('You arrive at sofa 1. On the sofa 1, you see nothing.');
    expect(formatUserTurn('x', ['a', 'b', 'c'], 2)).toBe('Observation:\nx\n\nAdmissible commands:\n- a\n- b');
    expect(AGENT_SYSTEM_PROMPT).toContain('Action: <command>');
  });

  it('parses actions as the reference does', () => {
    expect(parseAlfworldAction('Action: go to cabinet 1')).toBe('go to cabinet 1');
    expect(parseAlfworldAction('<think>hmm\nAction: no</think>\nI will act.\naction :  Take the apple 1 from the countertop 2.  ')).toBe('take apple 1 from countertop 2');
    expect(parseAlfworldAction('\n\n  Open a drawer 3...\nmore')).toBe('open drawer 3');
    expect(parseAlfworldAction('Action: examine an egg 2')).toBe('examine egg 2');
    expect(parseAlfworldAction('   \n<think>only thoughts</think>')).toBeUndefined();
  });
});

describe('baked scene and world-model prompts', () => {
  const spec = buildScene({
    locations: [['cabinet 1'], ['countertop 1'], ['drawer 1'], ['toilet 1']],
    objects: { 'soapbar 1': 'cabinet 1', 'candle 2': 'countertop 1' },
    doorless: ['drawer 1'],
    goal: { taskType: 'pick_clean_then_place_in_recep', text: 'put a clean soapbar in toilet', obj: 'soapbar', recep: 'toilet' },
  });
  it('renders the reference layout and parses back', () => {
    const text = renderBakedScene(bakeScene(spec));
    expect(text).toBe(
      'Task: put a clean soapbar in toilet.\nTask type: pick_clean_then_place_in_recep\nGoal predicates: target=soapbar, destination=toilet, needs_clean=true\n\n' +
        '## INITIAL SCENE\n- cabinet 1 (closed)\n- countertop 1 (open)\n- drawer 1 (open)\n- toilet 1 (open)\n\n' +
        '## INITIAL OBJECT LOCATIONS\n- soapbar 1: in cabinet 1\n- candle 2: on countertop 1',
    );
    expect(parseBakedScene(text)).toEqual(bakeScene(spec));
  });
  it('puts the scene into the grounding sections; the responder reads it back from the prompt', () => {
    const prompt = initialWorldModelPrompt(bakeScene(spec));
    const parsed = parseGroundingPrompt(prompt);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.value.environmentState).toContain('## INITIAL SCENE\n- cabinet 1 (closed)');
      expect(parsed.value.steeringDirectives).toContain('If uncertain, output "Nothing happens."');
      expect(parsed.value.predictionTarget).toMatch(/^The single textworld feedback paragraph/);
    }
    expect(parseBakedScene(prompt)).toEqual(bakeScene(spec));
    const step = stepWorldModelPrompt(replayBelief(bakeScene(spec), []), 'examine cabinet 1');
    expect(step).toContain('Current location: middle of the room (no receptacle in front)');
    expect(step).toContain('Active action (verbatim, lowercase): examine cabinet 1');
    expect(step.endsWith('in response to the action `examine cabinet 1` from the environment state above.')).toBe(true);
  });
  it('cleans world-model output', () => {
    expect(cleanWorldModelOutput('<think>x</think> `You close the fridge 1.`')).toBe('You close the fridge 1.');
    expect(cleanWorldModelOutput('[{"role":"assistant","content":"You close the fridge 1."}]')).toBe('You close the fridge 1.');
    expect(cleanWorldModelOutput('{"content":[{"type":"text","text":"ok"}]}')).toBe('ok');
    expect(cleanWorldModelOutput('  ')).toBe('Nothing happens.');
  });
});

/** Plays a game with a mix of expert, random admissible and invalid commands, as a conversation. */
function playConversation(task: ReturnType<typeof splitTasks>[number], rng: Rng, onStep: (history: ChatMessage[], action: string, truth: string, game: AlfworldGame) => void): void {
  const game = new AlfworldGame(gameForTask(task));
  const history: ChatMessage[] = [
    { role: 'system', content: AGENT_SYSTEM_PROMPT },
    { role: 'user', content: formatUserTurn(game.intro(), game.admissibleCommands()) },
  ];
  const names = [...game.spec.receptacles.map((r) => r.name), ...game.spec.objects.map((o) => o.name)];
  for (let i = 0; i < 40 && !game.won; i++) {
    const roll = rng.float();
    const action =
      roll < 0.5
        ? oracleAction(game)!
        : roll < 0.8
          ? rng.pick(game.admissibleCommands())
          : rng.pick(['open', 'close', 'go to', 'take', 'use', 'examine', 'heat']) + ' ' + rng.pick(names) + (rng.bool() ? ` from ${rng.pick(names)}` : '');
    const truth = game.step(action).feedback;
    onStep(history, action, truth, game);
    history.push({ role: 'assistant', content: `Action: ${action}` }, { role: 'user', content: formatUserTurn(truth, game.admissibleCommands()) });
  }
}

describe('local responder', () => {
  it('agrees with the engine on every action it answers, and answers most of them', () => {
    const rng = new Rng(11);
    let answered = 0;
    let total = 0;
    const wrong: string[] = [];
    const tasks = SPLITS.flatMap((s) => splitTasks(s).filter((_, i) => i % 25 === 0));
    for (const task of tasks)
      playConversation(task, rng, (history, action, truth) => {
        const scene = bakeScene(gameForTask(task));
        const got = respond(scene, history, action);
        total++;
        if (got === undefined) return;
        answered++;
        if (got !== truth) wrong.push(`${task.id}: ${action}: responder ${JSON.stringify(got)} vs engine ${JSON.stringify(truth)}`);
      });
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(answered / total).toBeGreaterThan(0.8);
  });

  it('simulated admissible commands equal the engine list on expert trajectories', () => {
    const mismatches: string[] = [];
    for (const task of splitTasks('eval_in_distribution')) {
      const game = new AlfworldGame(gameForTask(task));
      const scene = bakeScene(game.spec);
      const history: ChatMessage[] = [{ role: 'user', content: formatUserTurn(game.intro(), []) }];
      for (let a = oracleAction(game); a !== undefined; a = oracleAction(game)) {
        const fb = game.step(a).feedback;
        history.push({ role: 'assistant', content: a }, { role: 'user', content: formatUserTurn(fb, []) });
        const sim = simulatedAdmissible(replayBelief(scene, history));
        // The engine omits "go to" for receptacles sharing the agent's location; the belief cannot know them.
        const real = new Set(game.admissibleCommands());
        const extra = sim.filter((c) => !real.has(c) && !c.startsWith('go to '));
        // ...nor the commands about those co-located receptacles.
        const coLocated = game.here.map((r) => r.name).filter((n) => !a.endsWith(n) && !fb.includes(`at ${n}.`));
        const hidden = [...coLocated, ...coLocated.flatMap((n) => game.contents(n))];
        const missing = [...real].filter((c) => !sim.includes(c) && !hidden.some((n) => c.endsWith(` ${n}`)));
        if (extra.length || missing.length) mismatches.push(`${task.id} after ${a}: extra ${extra} missing ${missing}`);
      }
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  });

  it('defers examine and looks away from the middle; answers inventory, help and unparseable actions', () => {
    const spec = gameForTask(splitTasks('train')[0]!);
    const scene = bakeScene(spec);
    expect(respond(scene, [], 'examine cabinet 1')).toBeUndefined();
    expect(respond(scene, [], 'inventory')).toBe('You are not carrying anything.');
    expect(respond(scene, [], 'dance wildly')).toBe('Nothing happens.');
    expect(respond(scene, [], 'Action: <<x>> help')).toMatch(/^\nAvailable commands:/);
    const r = spec.receptacles[0]!.name;
    expect(respond(scene, [{ role: 'user', content: `You arrive at ${r}. The ${r} is closed.` }], 'look')).toBeUndefined();
  });
});

describe('goal check and reward from messages', () => {
  const meta: GoalMeta = { taskType: 'pick_heat_then_place_in_recep', target: 'potato', destination: 'sinkbasin', toggle: '' };
  const u = (content: string): ChatMessage => ({ role: 'user', content });
  const a = (content: string): ChatMessage => ({ role: 'assistant', content });
  const win = [
    a('Action: take potato 1 from fridge 1'),
    u('You pick up the potato 1 from the fridge 1.'),
    a('Action: heat potato 1 with microwave 1'),
    u('You heat the potato 1 using the microwave 1.'),
    a('Action: move potato 1 to sinkbasin 1'),
    u('You move the potato 1 to the sinkbasin 1.'),
  ];
  it('detects success per task type', () => {
    expect(checkGoalSatisfied(meta, win)).toBe(true);
    expect(
      checkGoalSatisfied(
        meta,
        win.filter((m) => !m.content.includes('heat')),
      ),
    ).toBe(false);
    expect(checkGoalSatisfied({ ...meta, taskType: 'pick_two_obj_and_place' }, win)).toBe(false);
    expect(
      checkGoalSatisfied({ taskType: 'look_at_obj_in_light', target: 'book', destination: '', toggle: 'desklamp' }, [u('You pick up the book 2 from the bed 1.'), u('You turn on the desklamp 1.')]),
    ).toBe(true);
    expect(
      checkGoalSatisfied({ taskType: 'look_at_obj_in_light', target: 'book', destination: '', toggle: 'desklamp' }, [u('You turn on the desklamp 1.'), u('You pick up the book 2 from the bed 1.')]),
    ).toBe(false);
  });
  it('rewards wins with penalties and failures with partial credit', () => {
    expect(alfworldReward(meta, win)).toBeCloseTo(1);
    const withNothing = [...win.slice(0, 2), a('Action: fly'), u('Nothing happens.'), ...win.slice(2)];
    expect(alfworldReward(meta, withNothing)).toBeCloseTo(0.75); // 1 - 1/4
    expect(alfworldReward(meta, win.slice(0, 2))).toBeCloseTo(0.03);
    expect(alfworldReward(meta, [...win.slice(0, 2), a('Action: move potato 1 to sinkbasin 1'), u('You move the potato 1 to the sinkbasin 1.')])).toBeCloseTo(0.25);
    expect(alfworldReward(meta, win.slice(0, 2), 'I think the best thing to do now is to go and look around the room carefully.\nAction: look')).toBeCloseTo(0.03 * 0.7);
    const idle = Array.from({ length: 10 }, (_, i) => [a(`Action: go to cabinet ${i + 1}`), u(`You arrive at cabinet ${i + 1}. The cabinet ${i + 1} is closed.`)]).flat();
    expect(alfworldReward(meta, idle)).toBeCloseTo(-0.05);
  });
});
