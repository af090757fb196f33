// The searching expert's figures for the README: win rate within the paper's 30 turns, mean and
// max turns, per task type, on the generated train split and on the paper's 140
// eval_in_distribution games (imported from the user's copy of its rows, when present).
//
//   npx tsx --conditions=@diffworld/source packages/envs/alfworld/scripts/expert-figures.ts [split …]
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { AlfworldGame } from '../src/engine/game.js';
import { gameForTask, splitTasks } from '../src/engine/splits.js';
import type { GameSpec } from '../src/engine/scene.js';
import { playExpert } from '../src/expert/run.js';
import { importRowsFile } from '../src/paper/games-file.js';
import { PAPER_ALFWORLD_DIR } from '../src/testing/paper-data.js';
import { TASK_TYPES } from '../src/world/tasks.js';

const TURNS = 30;

function report(name: string, games: GameSpec[]): void {
  const rows = new Map<string, { n: number; won: number; turns: number[] }>();
  const all = { n: 0, won: 0, turns: [] as number[] };
  for (const spec of games) {
    const ep = playExpert(new AlfworldGame(spec));
    const won = ep.won && ep.actions.length <= TURNS;
    const row = rows.get(spec.goal.taskType) ?? { n: 0, won: 0, turns: [] };
    rows.set(spec.goal.taskType, row);
    for (const r of [row, all]) {
      r.n++;
      if (won) r.won++, r.turns.push(ep.actions.length);
    }
  }
  const line = (label: string, r: { n: number; won: number; turns: number[] }) => {
    const mean = r.turns.reduce((a, b) => a + b, 0) / Math.max(1, r.turns.length);
    return `| ${label} | ${r.n} | ${r.won} (${((100 * r.won) / r.n).toFixed(1)}%) | ${mean.toFixed(1)} | ${Math.max(0, ...r.turns)} |`;
  };
  console.log(`\n${name}: searching expert, won within ${TURNS} turns (mean / max turns of the won games)\n`);
  console.log('| task type | games | won ≤ 30 turns | mean turns | max turns |\n|---|---|---|---|---|');
  for (const t of TASK_TYPES) if (rows.has(t)) console.log(line(t, rows.get(t)!));
  console.log(line('all', all));
}

const splits = process.argv.slice(2);
for (const split of splits.length ? splits : ['train'])
  report(
    `generated ${split}`,
    splitTasks(split).map((t) => gameForTask(t)),
  );
const evalRows = join(PAPER_ALFWORLD_DIR, 'alfworld_eval_id.jsonl');
if (existsSync(evalRows))
  report(
    "the paper's eval_in_distribution games",
    (await importRowsFile(evalRows)).games.map((g) => g.spec),
  );
else console.log(`skipping the paper's games: ${evalRows} is not there`);
