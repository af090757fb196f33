import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PaperRowError, sharedDataFiles, tempJsonlFile, type PromptSet, type WorldModelRequest } from '@diffworld/env-core';
import { corpusRows } from '../corpus.js';
import { AGENT_SYSTEM_PROMPT } from '../harness/prompt.js';
import { WALK_ROOMS, actionTemplates, worldModelSlots } from '../harness/prompt-set.js';
import { worldModelPrompt } from '../harness/wm-prompt.js';
import { sciworldSuite } from '../suite.js';
import { sciworldTasks } from '../world/tasks/split-tasks.js';
import { compareSciworldPrompts, extractSciworldPrompts } from './prompts.js';
import { parseSciworldRow } from './rows.js';

// Rows of the paper's shape whose prose is written here (synthetic, not the paper's): the baked
// prompt puts our engine's values for the task between made-up labels.
const SYSTEM = 'Synthetic ScienceWorld agent prompt.';
const task = sciworldTasks('train', ['boil'])[0]!;
const other = sciworldTasks('train', ['power-component'])[0]!;
function syntheticRow(t = task, system = SYSTEM) {
  const v = worldModelSlots(t);
  const wm = `# WORLD\nGoal: ${v.task}\nKind: ${v.task_type}\n# START\n${v.starting_state}\n# MAP\n${v.room_map}\n# VERBS ${v.action_templates}`;
  return {
    task_id: t.id,
    instruction: v.task,
    ground_truth: '',
    max_turns: 50,
    wm_system_prompt: wm,
    messages: JSON.stringify([
      { role: 'system', content: system },
      { role: 'user', content: `Task: ${v.task}\n\nYou are in: ${v.starting_state}` },
    ]),
  };
}
const rowsFile = (rows: readonly object[]) => tempJsonlFile(rows, 'sci-prompts-');

describe('extractSciworldPrompts / compareSciworldPrompts (synthetic rows)', () => {
  it("cut the task's parts out of the baked prompt; the set renders our prompts identical to rows built from our engine", async () => {
    const file = rowsFile([syntheticRow(), syntheticRow(other), syntheticRow(task, 'A different agent prompt.')]);
    const { set, disagreeing } = await extractSciworldPrompts([file]);
    expect(disagreeing).toEqual({ agentSystem: [`${file}:3`], worldModel: [] });
    expect(set.agentSystem.parts).toEqual([{ text: SYSTEM }]);
    expect(set.worldModel!.parts).toEqual([
      { text: '# WORLD\nGoal: ' },
      { slot: 'task' },
      { text: '\nKind: ' },
      { slot: 'task_type' },
      { text: '\n# START\n' },
      { slot: 'starting_state' },
      { text: '\n# MAP\n' },
      { slot: 'room_map' },
      { text: '\n# VERBS ' },
      { slot: 'action_templates' },
    ]);
    const cmp = await compareSciworldPrompts([file], set);
    expect(cmp).toMatchObject({ rows: 3, agentSystemIdentical: 2, worldModelIdentical: 3, unavailable: [] });
  });

  it('a task our engine does not have is reported, not fatal', async () => {
    const file = rowsFile([syntheticRow(), { ...syntheticRow(), task_id: 'boil_v999' }]);
    const { set } = await extractSciworldPrompts([file]);
    const cmp = await compareSciworldPrompts([file], set);
    expect(cmp.worldModelIdentical).toBe(1);
    expect(cmp.unavailable).toEqual([{ where: `${file}:2`, why: expect.stringContaining('no variation 999') }]);
  });

  it('the room map follows the walk order and electrical tasks keep connect/disconnect', () => {
    expect(
      worldModelSlots(task)
        .room_map.split('\n\n')
        .map((b) => b.split('\n')[0]),
    ).toEqual(WALK_ROOMS.map((r) => `[${r}]`));
    expect(actionTemplates('boil')).toHaveLength(15);
    expect(actionTemplates('boil').some((a) => a.includes('connect'))).toBe(false);
    expect(actionTemplates('power-component')).toContain('connect OBJ to OBJ');
  });

  it('rows are validated with the line and field named', () => {
    expect(() => parseSciworldRow({ ...syntheticRow(), task_id: 'boil' }, 'f:1')).toThrow(PaperRowError);
    expect(() => parseSciworldRow({ ...syntheticRow(), messages: '[' }, 'f:2')).toThrow(/f:2: messages/);
    expect(parseSciworldRow(syntheticRow(), 'f:3').messages[0]).toEqual({ role: 'system', content: SYSTEM });
  });
});

describe('the suite, corpus and simulated env with a prompt set', () => {
  const setOf = async (): Promise<PromptSet> => (await extractSciworldPrompts([rowsFile([syntheticRow()])])).set;

  it('render the set; without one, our prompts are unchanged', async () => {
    const set = await setOf();
    expect(sciworldSuite.agent.system()).toBe(AGENT_SYSTEM_PROMPT);
    expect(sciworldSuite.agent.system(set)).toBe(SYSTEM);
    expect(sciworldSuite.worldModelPrompt(task)).toBe(worldModelPrompt(task));
    expect(sciworldSuite.worldModelPrompt(task, set)).toBe(syntheticRow().wm_system_prompt);
    const [row] = corpusRows({ split: 'train', episodes: 1, seed: 0, prompts: set });
    expect(row!.messages[0]!.content).toBe(syntheticRow(sciworldTasks('train')[0]!).wm_system_prompt);
    expect(row!.messages[1]!.content).toContain(SYSTEM);
  });

  it("the simulated env asks the world model with the set's prompt and starts the history with its agent prompt", async () => {
    const set = await setOf();
    const calls: WorldModelRequest[] = [];
    const sim = sciworldSuite.createSimulatedEnv({ predict: async (r) => (calls.push(r), { text: 'The stove is now activated.' }) }, { prompts: set, useResponder: false });
    await sim.reset(task);
    await sim.step('activate stove');
    expect(calls[0]!.system).toBe(syntheticRow().wm_system_prompt);
    expect(calls[0]!.history[0]).toEqual({ role: 'system', content: SYSTEM });
  });

  it('the server refuses a prompt set (every POST path is a step in the reference protocol)', async () => {
    await expect(sciworldSuite.server.start({ host: '127.0.0.1', port: 0, prompts: await setOf() })).rejects.toThrow(/serves no prompts/);
  });
});

const PAPER_DIR = fileURLToPath(new URL('../../../../../../shared/data/paper/sciworld/', import.meta.url));
const SPLIT_FILES = ['sciworld_rl_split.jsonl', 'sciworld_test_split.jsonl'].map((f) => PAPER_DIR + f);
const paperFiles = () => sharedDataFiles(PAPER_DIR, ['sciworld_rl_split.jsonl', 'sciworld_test_split.jsonl', 'sciworld_sft_gpt_perfect.jsonl'], "the paper's ScienceWorld rows");

describe("the paper's ScienceWorld rows (../shared/data/paper/sciworld)", () => {
  const files = paperFiles();
  it.skipIf(!files)('the templates follow every row; the agent prompt is identical; the WM prompt share is reported', async () => {
    const all = await extractSciworldPrompts(files!);
    // The SFT demos carry another (shorter) agent prompt: the split rows' one is the majority.
    expect(all.disagreeing.worldModel).toEqual([]);
    expect(all.disagreeing.agentSystem.every((w) => w.includes('sciworld_sft_gpt_perfect'))).toBe(true);
    const { set } = await extractSciworldPrompts(SPLIT_FILES);
    const cmp = await compareSciworldPrompts(SPLIT_FILES, set);
    const pct = (n: number) => ((100 * n) / cmp.rows).toFixed(1);
    console.log(
      `paper prompts (sciworld, RL + test splits): agent system prompt identical ${cmp.agentSystemIdentical}/${cmp.rows} (${pct(cmp.agentSystemIdentical)}%), world-model prompt identical ${cmp.worldModelIdentical}/${cmp.rows} (${pct(cmp.worldModelIdentical)}%): the template follows ${set.source.worldModel!.agreeing}/${set.source.worldModel!.examples} rows; the rest differ in our engine's values (task variation, room texts)`,
    );
    expect(cmp.agentSystemIdentical).toBe(cmp.rows);
    // Every task id whose room texts are identical (golden: the rest differ only in the real engine's
    // own order of same-named things) renders the whole prompt identically.
    expect(cmp.worldModelIdentical).toBeGreaterThanOrEqual(17);
    expect(set.source.worldModel!.agreeing).toBe(cmp.rows);
    expect(cmp.unavailable).toEqual([]);
  });
});
