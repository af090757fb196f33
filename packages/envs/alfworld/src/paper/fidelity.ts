// Replay fidelity: the real observations a paper row records, replayed against our engine on the
// imported game. A row records the agent's first turn (the welcome text and the admissible list)
// and, through its scene walk, what the real game printed on `go to R` and `open R` for each
// receptacle (the objects in the order the real game listed them). Receptacles whose text the walk
// does not pin down (found open with nothing recorded) are not replayed.
import { AlfworldGame } from '../engine/game.js';
import { formatUserTurn } from '../harness/agent.js';
import { TEXT } from '../world/text.js';
import type { ImportedGame } from './import.js';
import type { PaperRow } from './rows.js';

export interface ReplayDifference {
  action: string;
  real: string;
  ours: string;
}

export interface ReplayReport {
  /** Observations replayed (the first turn counts as one). */
  checked: number;
  identical: number;
  /** Receptacles not replayed: the walk found them open and recorded no text to compare. */
  skipped: number;
  differences: ReplayDifference[];
}

/** Replays one row's recorded observations on its imported game. */
export function replayRow(row: PaperRow, game: ImportedGame): ReplayReport {
  const report: ReplayReport = { checked: 0, identical: 0, skipped: 0, differences: [] };
  const compare = (action: string, real: string, ours: string) => {
    report.checked++;
    if (real === ours) report.identical++;
    else report.differences.push({ action, real, ours });
  };
  const engine = new AlfworldGame(game.spec);
  compare('(reset)', row.messages[1]?.content ?? '', formatUserTurn(engine.intro(), engine.admissibleCommands()));

  const walk = walkOf(row.wm_system_prompt);
  for (const r of game.spec.receptacles) {
    const seen = walk.get(r.name) ?? { rel: undefined, objects: [] };
    const closed = r.openable && !r.open;
    if (r.open || (!r.openable && seen.rel === undefined && isOpenableClassFoundOpen(row, r.name))) {
      report.skipped++;
      continue;
    }
    const fresh = new AlfworldGame(game.spec);
    const arrive = fresh.step(`go to ${r.name}`).feedback;
    if (closed) {
      compare(`go to ${r.name}`, `You arrive at ${r.name}. ${TEXT.closedReceptacle(r.name)}`, arrive);
      compare(`open ${r.name}`, TEXT.open(r.name, seen.objects), fresh.step(`open ${r.name}`).feedback);
    } else {
      compare(`go to ${r.name}`, `You arrive at ${r.name}. ${TEXT.onReceptacle(r.name, seen.objects)}`, arrive);
    }
  }
  return report;
}

/** Objects per receptacle in the order the real game listed them (duplicates included). */
function walkOf(prompt: string): Map<string, { rel: 'in' | 'on'; objects: string[] }> {
  const out = new Map<string, { rel: 'in' | 'on'; objects: string[] }>();
  for (const m of prompt.matchAll(/^- (.+ \d+): (in|on) (.+ \d+)$/gm)) {
    const entry = out.get(m[3]!) ?? { rel: m[2] as 'in' | 'on', objects: [] };
    entry.objects.push(m[1]!);
    out.set(m[3]!, entry);
  }
  return out;
}

function isOpenableClassFoundOpen(row: PaperRow, name: string): boolean {
  return new RegExp(`^- ${name} \\(open\\)$`, 'm').test(row.wm_system_prompt) && /^(cabinet|drawer|safe|fridge|microwave) /.test(name);
}
