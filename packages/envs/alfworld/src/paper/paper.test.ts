import { describe, expect, it } from 'vitest';
import { AlfworldGame } from '../engine/game.js';
import { runOracle } from '../engine/oracle.js';
import { registerGames } from '../engine/splits.js';
import type { ChatMessage } from '@diffworld/env-core';
import { formatUserTurn, parseAlfworldAction } from '../harness/agent.js';
import { respond } from '../harness/responder.js';
import { bakeScene, parseBakedScene, renderBakedScene } from '../harness/scene-prompt.js';
import { startAlfworldServer } from '../server.js';
import { paperRowFiles } from '../testing/paper-data.js';
import { SAMPLE_GAME_FILE, SAMPLE_PROMPT, samplePaperRow } from '../testing/paper-row.js';
import { SEEN_FLOORPLANS, type RoomType } from '../world/vocab.js';
import { replayRow } from './fidelity.js';
import { importPaperRow, paperGameKey, type ImportedGame } from './import.js';
import { PaperRowError, parsePaperRow, readPaperRows, type PaperRow } from './rows.js';

const row = samplePaperRow;
const GAME = SAMPLE_GAME_FILE;
const PROMPT = SAMPLE_PROMPT;

describe('importPaperRow', () => {
  it('rebuilds the scene of the walk and lists every guess it makes', () => {
    const g = importPaperRow(row());
    expect(g.task).toMatchObject({ env: 'alfworld', split: 'train', id: 'train/pick_two_obj_and_place-Mug-None-CoffeeMachine-12/trial_T20190001_000000_000001', taskType: 'pick_two_obj_and_place' });
    expect(g.spec).toMatchObject({ roomType: 'kitchen', floorplan: 12, goal: { text: 'find two mug and put them in coffeemachine', obj: 'mug', recep: 'coffeemachine' } });
    const rec = Object.fromEntries(g.spec.receptacles.map((r) => [r.name, { openable: r.openable, open: r.open ?? false }]));
    expect(rec['cabinet 2']).toEqual({ openable: true, open: false }); // closed: has a door
    expect(rec['cabinet 1']).toEqual({ openable: false, open: false }); // open with objects "on" it: no door
    expect(rec['fridge 1']).toEqual({ openable: true, open: true }); // a fridge found open started open
    expect(rec['drawer 1']).toEqual({ openable: false, open: false }); // found open, nothing recorded: a guess
    expect(g.spec.objects.find((o) => o.name === 'sink 1')).toMatchObject({ parent: 'countertop 1', alsoIn: ['sinkbasin 1'], pickupable: false });
    // Pick-two needs a second mug; the walk saw one, so one is added where the walk recorded no
    // contents and a mug fits (the open fridge; a drawer holds no mug).
    expect(g.spec.objects.find((o) => o.name === 'mug 3')).toMatchObject({ parent: 'fridge 1' });
    expect(g.inferred).toEqual([
      'each receptacle stands at its own location (the row does not say which share one)',
      'drawer 1 was found open with nothing recorded: taken as doorless and empty',
      'fridge 1 starts open and its contents were not recorded',
      'mug 3 added in fridge 1: the goal needs it and the walk did not see it',
    ]);
  });

  it('plays like the real game: first turn identical, objects in two receptacles, the expert wins', () => {
    const r = row();
    const g = importPaperRow(r);
    const report = replayRow(r, g);
    expect(report).toMatchObject({ identical: report.checked, differences: [] });
    expect(report.skipped).toBe(2); // fridge 1 and drawer 1: the walk recorded no text for them
    const game = new AlfworldGame(g.spec);
    expect(game.step('go to sinkbasin 1').feedback).toBe('You arrive at sinkbasin 1. On the sinkbasin 1, you see a sink 1.');
    expect(game.step('go to fridge 1').feedback).toBe('You arrive at fridge 1. The fridge 1 is open. In it, you see a mug 3.');
    expect(runOracle(game).length).toBeGreaterThan(0);
    expect(game.won).toBe(true);
    // The scene walk of the imported game is the row's world-model prompt, byte for byte.
    expect(renderBakedScene(bakeScene(g.spec))).toBe(r.wm_system_prompt);
  });

  it('an added object makes a found-open receptacle one that started open (it had a door)', () => {
    const g = importPaperRow(row({ wm_system_prompt: PROMPT.replace('- fridge 1 (open)\n', '').replace('- cabinet 1 (open)', '- cabinet 1 (open)\n- cabinet 3 (open)') }));
    const host = g.spec.objects.find((o) => o.name === 'mug 3')!.parent;
    expect(host).toBe('cabinet 3');
    expect(g.spec.receptacles.find((r) => r.name === 'cabinet 3')).toMatchObject({ openable: true, open: true });
    expect(g.inferred).toContain('cabinet 3 starts open and its contents were not recorded');
    expect(g.inferred.join('\n')).not.toContain('cabinet 3 was found open');
  });

  it('an object in two receptacles leaves both when taken', () => {
    const g = importPaperRow(row({ wm_system_prompt: PROMPT.replace('- sink 1: on countertop 1\n- sink 1: on sinkbasin 1', '- fork 2: on countertop 1\n- fork 2: on sinkbasin 1') }));
    const game = new AlfworldGame(g.spec);
    game.step('go to sinkbasin 1');
    expect(game.step('take fork 2 from sinkbasin 1').feedback).toBe('You pick up the fork 2 from the sinkbasin 1.');
    expect(game.step('go to countertop 1').feedback).toBe('You arrive at countertop 1. On the countertop 1, you see nothing.');
  });

  it('names what is wrong with a row', () => {
    expect(() => parsePaperRow({ ...row(), task_type: 'pick_and_slice' }, 'rows.jsonl:3')).toThrow('rows.jsonl:3: task_type: unknown task type "pick_and_slice"');
    expect(() => parsePaperRow({ ...row(), init_admissible: 'look' }, 'rows.jsonl:4')).toThrow('rows.jsonl:4: init_admissible: expected an array of strings');
    expect(() => importPaperRow(row({ game_file: 'no-floorplan/game.tw-pddl' }), 'r:1')).toThrow(PaperRowError);
    expect(() => importPaperRow(row({ wm_system_prompt: PROMPT.replace('## INITIAL SCENE', '## SCENE') }), 'r:2')).toThrow('r:2: wm_system_prompt: no "## INITIAL SCENE" section');
    expect(() => importPaperRow(row({ wm_system_prompt: `${PROMPT}\n- cup 1: on shelf 9` }), 'r:5')).toThrow('cup 1 is in shelf 9, which the scene does not list');
    expect(paperGameKey('train/x-1/trial_T1')).toBe('train/x-1/trial_T1');
    expect(paperGameKey(GAME)).toBe(paperGameKey(`/other/root/json_2.1.1/${paperGameKey(GAME)}/game.tw-pddl`));
  });
});

/**
 * The request/response handling of the paper's eval client (eval_parallel.py), ported: reset with
 * `par-<hex>` ids and the row's game_file, the first user turn with every admissible command, later
 * ones with the first 30; kills on an unparseable completion, 3 identical actions, or 4 "Nothing
 * happens." in a row; the end on won or done or 50 turns; then DELETE /close.
 */
async function paperClientEpisode(url: string, r: PaperRow, complete: (messages: { role: string; content: string }[]) => string, index: number) {
  const post = async (path: string, body: unknown, method = 'POST') => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return (await res.json()) as Record<string, unknown>;
      } catch (e) {
        if (attempt >= 4) throw e;
        await new Promise((ok) => setTimeout(ok, 200 * (attempt + 1)));
      }
    }
  };
  const taskId = `par-${index.toString(16).padStart(10, '0')}`;
  const reset = await post('/reset', { task_id: taskId, game_file: r.game_file, split: r.split });
  if (reset.error) throw new Error(String(reset.error));
  const messages = [r.messages[0]!, { role: 'user', content: `Observation:\n${reset.obs}\n\nAdmissible commands:\n${(reset.admissible as string[]).map((c) => `- ${c}`).join('\n')}` }];
  const actions: string[] = [];
  let won = false;
  let kill: string | undefined;
  let nothing = 0;
  for (let turn = 0; turn < 50; turn++) {
    const completion = complete(messages);
    messages.push({ role: 'assistant', content: completion });
    const action = parseAlfworldAction(completion);
    if (!action) {
      kill = 'unparseable';
      break;
    }
    actions.push(action);
    if (actions.length >= 3 && actions.slice(-3).every((a) => a === action)) {
      kill = 'repeat';
      break;
    }
    const step = await post('/step', { task_id: taskId, action });
    if (step.error) throw new Error(String(step.error));
    nothing = step.obs === 'Nothing happens.' ? nothing + 1 : 0;
    if (nothing >= 4) {
      kill = 'nothing';
      break;
    }
    won = step.won === true;
    if (won || step.done === true) break;
    messages.push({
      role: 'user',
      content: `Observation:\n${step.obs}\n\nAdmissible commands:\n${(step.admissible as string[])
        .slice(0, 30)
        .map((c) => `- ${c}`)
        .join('\n')}`,
    });
  }
  const closed = await post('/close', { task_id: taskId }, 'DELETE');
  return { won, kill, firstTurn: messages[1]!.content, closed };
}

/** A completion function that plays the oracle's plan as `Action: …` lines (the searching expert's figures are in expert/expert.test.ts). */
function expertCompletions(game: ImportedGame) {
  const plan = runOracle(new AlfworldGame(game.spec));
  let k = 0;
  return () => `Action: ${plan[k++] ?? 'look'}`;
}

async function playAll(rows: PaperRow[], games: ImportedGame[]) {
  const server = await startAlfworldServer({ games });
  try {
    const results = [];
    for (let i = 0; i < rows.length; i += 32) {
      results.push(...(await Promise.all(rows.slice(i, i + 32).map((r, j) => paperClientEpisode(server.url, r, expertCompletions(games[i + j]!), i + j)))));
    }
    return results;
  } finally {
    await server.close();
  }
}

describe("the paper's client loop against our server", () => {
  it('plays an imported game by its game_file path to a win; the first turn is the real one', async () => {
    const r = row();
    const g = importPaperRow(r);
    registerGames([g]);
    const [result] = await playAll([r], [g]);
    expect(result).toEqual({ won: true, kill: undefined, firstTurn: r.messages[1]!.content, closed: { status: 'closed' } });
  });
});

describe("the paper's ALFWorld rows (../shared/data/paper/alfworld)", () => {
  const files = paperRowFiles();
  it.skipIf(!files)(
    'import into games our engine replays identically, on the seen floorplans, and the oracle wins every one over HTTP',
    async () => {
      const rows = (await Promise.all(files!.map((f) => readPaperRows(f)))).flat();
      const games = rows.map((r, i) => importPaperRow(r, `row ${i}`));
      registerGames(games);
      let checked = 0;
      let identical = 0;
      let skipped = 0;
      const differences = [];
      for (const [i, r] of rows.entries()) {
        const rep = replayRow(r, games[i]!);
        checked += rep.checked;
        identical += rep.identical;
        skipped += rep.skipped;
        differences.push(...rep.differences);
      }
      const samePrompt = rows.filter((r, i) => renderBakedScene(bakeScene(games[i]!.spec)) === r.wm_system_prompt).length;
      console.log(
        `paper rows: ${rows.length} games; replay ${identical}/${checked} observations identical (${((100 * identical) / checked).toFixed(2)}%), ${skipped} receptacles without a recorded text; scene prompt identical ${samePrompt}/${rows.length}`,
      );
      expect(differences.slice(0, 3)).toEqual([]);
      expect(samePrompt).toBe(rows.length);
      // The local responder, reading the paper's own scene prompt, agrees with the engine on every
      // action of the expert's episodes that it answers.
      let answered = 0;
      let actions = 0;
      const disagreements: string[] = [];
      rows.forEach((r, i) => {
        const scene = parseBakedScene(r.wm_system_prompt)!;
        const game = new AlfworldGame(games[i]!.spec);
        const history: ChatMessage[] = [{ role: 'user', content: formatUserTurn(game.intro(), game.admissibleCommands()) }];
        for (const action of runOracle(new AlfworldGame(games[i]!.spec))) {
          const local = respond(scene, history, action);
          const truth = game.step(action).feedback;
          actions++;
          if (local !== undefined) answered++, local !== truth && disagreements.push(`${games[i]!.task.id}: ${action}: ${local} ≠ ${truth}`);
          history.push({ role: 'assistant', content: `Action: ${action}` }, { role: 'user', content: formatUserTurn(truth, game.admissibleCommands()) });
        }
      });
      console.log(`responder on the paper's games: answered ${answered}/${actions} expert actions, ${disagreements.length} disagreements`);
      expect(disagreements.slice(0, 3)).toEqual([]);
      for (const g of games) expect(SEEN_FLOORPLANS[g.spec.roomType as RoomType]).toContain(g.spec.floorplan % 100);
      const results = await playAll(rows, games);
      const lost = results.flatMap((res, i) => (res.won ? [] : [`${games[i]!.task.id} (${res.kill ?? 'turn cap'})`]));
      expect(lost).toEqual([]);
      expect(results.every((res, i) => res.firstTurn === rows[i]!.messages[1]!.content)).toBe(true);
    },
    120_000,
  );
});
