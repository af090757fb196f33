// `diffworld env play|expert|corpus|serve|import <env>` and `env prompts extract`: the environment engines from the command line.
import { createInterface } from 'node:readline';
import { AtomicFile, WORLD_MODEL_LAYOUTS, createRowWriter, episodeStepRows, type ChatRow, type WorldModelLayout } from '@diffworld/dataset';
import { checkSplit, loadPromptSet, writePromptSet, EnvSuiteError, type EnvSuite, type PromptSet } from '@diffworld/env-core';
import { importRowsFile, writeImportedGames } from '@diffworld/alfworld';
import { ENV_NAMES, envSuite } from '@diffworld/envs';
import { EXIT, UsageError, intOpt, positiveIntOpt, positional, stringOpt, requiredString, type Command, type ParsedArgs } from '../command.js';

const names = () => ENV_NAMES.join('|');

/** `--prompts FILE`: the paper's prompts for this env (checked before any work), or undefined. */
function promptsOpt(args: ParsedArgs, suite: EnvSuite): PromptSet | undefined {
  const file = stringOpt(args, 'prompts');
  return file === undefined ? undefined : loadPromptSet(suite, file);
}

const PROMPTS_HELP = `  --prompts FILE  the paper's prompts (\`diffworld env prompts extract\` output) instead of ours`;

const play: Command = {
  path: ['env', 'play'],
  summary: 'play an environment interactively (shows admissible commands)',
  help: `Usage: diffworld env play <${names()}> [--split S] [--game N]

Plays one task of a split in the real engine, reading one command per line from standard input.
Type "quit" (or end the input) to stop.

Options:
  --split S   task split (default: the env's first evaluation split)
  --game N    index of the task in the split (default 0)

Example:
  npx diffworld env play alfworld --split eval_in_distribution --game 3`,
  options: { split: { type: 'string' }, game: { type: 'string' } },
  async run(args, io) {
    const suite = envSuite(positional(args, 0, 'environment name'));
    const split = stringOpt(args, 'split') ?? suite.splits[1] ?? suite.splits[0]!;
    const tasks = suite.tasks(split);
    const index = intOpt(args, 'game', 0);
    const task = tasks[index];
    if (!task) throw new UsageError(`--game ${index} is out of range: split ${split} has ${tasks.length} tasks`);
    const env = suite.createEnv();
    const obs = await env.reset(task);
    io.out(`# ${task.id} (${task.taskType})\n${obs.text}`);
    const show = (admissible?: string[]) => admissible && io.out(`\nAdmissible commands:\n${admissible.map((a) => `- ${a}`).join('\n')}`);
    show(obs.admissible);
    const rl = io.input ? undefined : createInterface({ input: process.stdin, terminal: false });
    let steps = 0;
    for await (const line of io.input ?? rl!) {
      const action = line.trim();
      if (action === 'quit') break;
      if (!action) continue;
      const r = await env.step(action);
      steps++;
      io.out(`\n> ${action}\n${r.observation.text}`);
      if (r.done) {
        io.out(`\n# episode over after ${steps} steps: score ${r.info.score}, ${r.info.won ? 'won' : 'not won'}`);
        break;
      }
      show(r.observation.admissible);
    }
    rl?.close();
    return EXIT.ok;
  },
};

const expert: Command = {
  path: ['env', 'expert'],
  summary: 'write the expert episode of every task of a split (episode records, JSONL)',
  help: `Usage: diffworld env expert <${names()}> --split S --out FILE.jsonl [--limit N]

Plays the expert planner on every task of the split in the real engine and writes one env-core
episode record per task ({"env","split","task_id","task_type","seed","messages","actions",
"steps","reward","score","won"}). Prints the success rate at the end.

Example:
  npx diffworld env expert alfworld --split train --out demos.jsonl`,
  options: { split: { type: 'string' }, out: { type: 'string' }, limit: { type: 'string' } },
  async run(args, io) {
    const suite = envSuite(positional(args, 0, 'environment name'));
    const split = requiredString(args, 'split');
    const out = requiredString(args, 'out');
    const tasks = suite.tasks(split).slice(0, intOpt(args, 'limit', Number.MAX_SAFE_INTEGER));
    const file = new AtomicFile(out);
    let won = 0;
    let last = Date.now();
    try {
      for (const [i, task] of tasks.entries()) {
        const record = await suite.expertRecord(task);
        if (record.won) won++;
        file.write(JSON.stringify(record) + '\n');
        if (Date.now() - last > 2000) {
          last = Date.now();
          io.err(`expert: ${i + 1}/${tasks.length} tasks`);
        }
      }
      file.commit();
    } catch (e) {
      file.abort();
      throw e;
    }
    io.out(`${suite.name} ${split}: ${tasks.length} episodes, expert won ${won} (${((100 * won) / Math.max(tasks.length, 1)).toFixed(1)}%) → ${out}`);
    return won === tasks.length ? EXIT.ok : EXIT.failure;
  },
};

/** --layout: the corpus row layout (episode for our corpora; transition is the paper's). */
function layoutOpt(args: ParsedArgs, fallback: WorldModelLayout): WorldModelLayout {
  const v = stringOpt(args, 'layout') ?? fallback;
  if (!(WORLD_MODEL_LAYOUTS as readonly string[]).includes(v)) throw new UsageError(`--layout must be one of ${WORLD_MODEL_LAYOUTS.join(', ')}, got "${v}"`);
  return v as WorldModelLayout;
}

/**
 * An episode row cut into its steps' rows; per-observation meta lists (an env's meta.state_changes,
 * one count per observation) give each step row its own entry.
 */
function stepRowsOf(row: ChatRow): ChatRow[] {
  return episodeStepRows(row.messages).map((messages, k, all) => {
    if (!row.meta) return { ...row, messages };
    const meta = Object.fromEntries(Object.entries(row.meta).map(([key, v]) => [key, Array.isArray(v) && v.length === all.length ? v[k] : v]));
    return { ...row, messages, meta };
  });
}

const corpus: Command = {
  path: ['env', 'corpus'],
  summary: 'generate world-model training rows from expert and perturbed episodes',
  help: `Usage: diffworld env corpus <${names()}> --split S --episodes N --out FILE(.jsonl|.parquet) [--seed S] [--prompts FILE] [--layout episode|transition] [--per-step] [--fresh-games]

--layout episode (the default): one row per episode, {"messages":[system = grounded world-model
prompt, user = "<first observation>\\n\\nAction: a1", assistant = o1, user = "Action: a2",
assistant = o2, …]}: every observation is a target (wm train trains them all; a model trained on
these rows records the layout and builds its prompts the same way). --per-step writes an
episode's rows one per step instead, each the episode's row cut after that step's observation (its
prompt is the world model's prompt for that step): held-out sets for eval wm, every transition scored.
--layout transition (the paper's rows; the default with --prompts): one row per step,
{"messages":[system, user = "State: <json history>\\n\\nAction: <action>", assistant = next observation]}.
With --prompts, the system prompt and the agent history's system prompt are the paper's.
--episodes N beyond the split's task count replays its tasks (other perturbations); --fresh-games
plays newly generated games of the split there instead (alfworld: the split's floorplans, new
object placements), for corpora with more distinct scenes than the split lists.

${PROMPTS_HELP}

Example:
  npx diffworld env corpus alfworld --split train --episodes 200 --out wm-corpus.parquet`,
  options: {
    split: { type: 'string' },
    episodes: { type: 'string' },
    out: { type: 'string' },
    seed: { type: 'string' },
    prompts: { type: 'string' },
    layout: { type: 'string' },
    'per-step': { type: 'boolean' },
    'fresh-games': { type: 'boolean' },
  },
  async run(args, io) {
    const suite = envSuite(positional(args, 0, 'environment name'));
    const freshGames = args.values['fresh-games'] === true;
    if (freshGames && !suite.generatesGames)
      throw new UsageError(`--fresh-games: ${suite.name}'s engine does not generate games beyond its splits' tasks (only ${ENV_NAMES.filter((n) => envSuite(n).generatesGames).join(', ')} does)`);
    // Checked before the output file is created.
    const split = checkSplit(suite, requiredString(args, 'split'));
    const prompts = promptsOpt(args, suite);
    const layout = layoutOpt(args, prompts ? 'transition' : 'episode');
    const perStep = args.values['per-step'] === true;
    if (perStep && layout !== 'episode') throw new UsageError('--per-step cuts episode-layout rows into steps; it needs --layout episode');
    const episodes = positiveIntOpt(args, 'episodes', 100);
    const out = requiredString(args, 'out');
    const writer = await createRowWriter(out);
    let rows = 0;
    try {
      for await (const row of suite.corpusRows({ split, episodes, seed: intOpt(args, 'seed', 0), layout, ...(prompts ? { prompts } : {}), ...(freshGames ? { freshGames } : {}) })) {
        for (const r of perStep ? stepRowsOf(row) : [row]) {
          await writer.write(r);
          rows++;
        }
      }
      await writer.close();
    } catch (e) {
      await writer.abort();
      throw e;
    }
    io.out(`${suite.name} ${split}: ${episodes} episodes → ${rows} rows (${layout} layout${perStep ? ', one per step' : ''}) → ${out}`);
    return EXIT.ok;
  },
};

const serve: Command = {
  path: ['env', 'serve'],
  summary: "serve an environment over HTTP (the reference's reset/step/close protocol)",
  help: `Usage: diffworld env serve <${names()}> [--port P] [--host H] [--games FILE] [--prompts FILE]

Serves the real engine to a trainer or an evaluator over JSON HTTP, with the reference harness's
protocol of each env (below). Binds 127.0.0.1 unless --host says otherwise; the default port is the
env's (${ENV_NAMES.map((n) => `${n} ${envSuite(n).server.defaultPort}`).join(', ')}). Episodes are isolated by id. Stops on Ctrl-C.

Options:
  --port P        port (0 picks a free one)
  --host H        address to bind (default 127.0.0.1)
  --games FILE    alfworld: serve imported real games too (\`diffworld env import alfworld\` output),
                  playable by their game_file path
${PROMPTS_HELP};
                  alfworld: POST /prompts answers the set's system prompts

Protocols (request body → response body, JSON):
${ENV_NAMES.map((n) => `\n${n}\n${envSuite(n).server.protocol.replace(/^/gm, '  ')}`).join('\n')}

Examples:
  npx diffworld env serve alfworld --port 30003
  curl -s localhost:30003/reset -d '{"task_id": "ep-1", "game_file": "0", "split": "eval_in_distribution"}'`,
  options: { port: { type: 'string' }, host: { type: 'string' }, games: { type: 'string' }, prompts: { type: 'string' } },
  async run(args, io) {
    const suite = envSuite(positional(args, 0, 'environment name'));
    const gamesFile = stringOpt(args, 'games');
    const prompts = promptsOpt(args, suite);
    const server = await suite.server.start({
      host: stringOpt(args, 'host') ?? '127.0.0.1',
      port: intOpt(args, 'port', suite.server.defaultPort),
      ...(gamesFile ? { gamesFile } : {}),
      ...(prompts ? { prompts } : {}),
      log: (line) => io.err(`${suite.name} env server: ${line}`),
    });
    io.out(`${suite.name} env server listening on ${server.url}`);
    await new Promise<void>((resolve) => {
      const stop = () => void server.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return EXIT.ok;
  },
};

const importGames: Command = {
  path: ['env', 'import'],
  summary: "turn the paper's ALFWorld rows into games our engine plays (for env serve --games)",
  help: `Usage: diffworld env import alfworld ROWS.jsonl --out GAMES.jsonl

Reads the paper's ALFWorld rows (its eval or RL JSONL: game_file, goal, wm_system_prompt with the
walk of the real scene) and writes one playable game per row: receptacles and objects where the real
game put them, the row's goal and floorplan. What a row does not pin down is guessed and listed in
each game's "inferred" field. Replays the rows' recorded observations on the games and prints the
share that is identical.

Example:
  npx diffworld env import alfworld alfworld_eval_id.jsonl --out paper-games.jsonl
  npx diffworld env serve alfworld --games paper-games.jsonl`,
  options: { out: { type: 'string' } },
  async run(args, io) {
    const env = positional(args, 0, 'environment name');
    envSuite(env);
    if (env !== 'alfworld') throw new UsageError(`env import: only alfworld imports the paper's rows, got "${env}"`);
    const rows = positional(args, 1, 'rows file (JSONL)');
    const out = requiredString(args, 'out');
    const { games, replay } = await importRowsFile(rows);
    writeImportedGames(out, games);
    const guesses = games.reduce((n, g) => n + g.inferred.length, 0);
    const pct = (100 * replay.identical) / Math.max(replay.checked, 1);
    io.out(
      `${games.length} games → ${out}; ${guesses} inferred facts (see "inferred"); replay: ${replay.identical}/${replay.checked} recorded observations identical (${pct.toFixed(2)}%), ${replay.skipped} receptacles without a recorded text`,
    );
    // The games are written either way; a difference is reported, not fatal (the games still play).
    if (replay.differences > 0) io.err(`env import: ${replay.differences} recorded observations differ from our engine's (replay them with replayRow to see which)`);
    return EXIT.ok;
  },
};

const extractPrompts: Command = {
  path: ['env', 'prompts', 'extract'],
  summary: "derive the paper's agent and world-model prompt templates from rows of its data (for --prompts)",
  help: `Usage: diffworld env prompts extract <${names()}> ROWS.jsonl [ROWS2.jsonl …] --out PROMPTS.json

Reads rows of the paper's published data that you have (alfworld: alfworld_eval_id.jsonl,
alfworld_rl.jsonl; sciworld: sciworld_rl_split.jsonl, sciworld_test_split.jsonl; appworld: one
file at a time) and writes the templates of its agent system prompt and world-model system prompt:
the rows' text with the parts our harness computes per task cut out (appworld: the agent prompt
only; its world model keeps our prompt). The file is read by
--prompts on env corpus, env serve and eval agent; with it those prompts are the paper's byte for
byte. Prints how many rows follow each template and how many our harness reproduces exactly
(rows that differ are listed on stderr). The paper's text goes only into PROMPTS.json.

Example:
  npx diffworld env prompts extract alfworld ../shared/data/paper/alfworld/alfworld_eval_id.jsonl --out paper-prompts.json
  npx diffworld env corpus alfworld --split train --episodes 100 --prompts paper-prompts.json --out wm.parquet`,
  options: { out: { type: 'string' } },
  async run(args, io) {
    const suite = envSuite(positional(args, 0, 'environment name'));
    if (!suite.prompts) throw new EnvSuiteError('no_prompts', `${suite.name} does not support the paper's prompt sets`);
    positional(args, 1, 'rows file (JSONL)');
    const files = args.positionals.slice(1);
    const out = requiredString(args, 'out');
    const { set, disagreeing } = await suite.prompts.extract(files);
    const cmp = await suite.prompts.compare(files, set);
    writePromptSet(out, set);
    const share = (n: number) => `${n}/${cmp.rows} (${((100 * n) / Math.max(cmp.rows, 1)).toFixed(1)}%)`;
    const wm = set.source.worldModel;
    io.out(
      `${suite.name} prompts → ${out}: agent system prompt from ${set.source.agentSystem.agreeing}/${set.source.agentSystem.examples} rows, ${wm ? `world-model prompt from ${wm.agreeing}/${wm.examples} rows` : 'no world-model template (the env keeps its own)'}`,
    );
    io.out(`identical with our harness: agent system prompt ${share(cmp.agentSystemIdentical)}${wm ? `, world-model prompt ${share(cmp.worldModelIdentical)}` : ''}`);
    for (const w of disagreeing.agentSystem) io.err(`env prompts: ${w}: agent system prompt differs from the template`);
    for (const w of disagreeing.worldModel) io.err(`env prompts: ${w}: world-model prompt does not follow the template`);
    for (const u of cmp.unavailable) io.err(`env prompts: ${u.where}: no world-model prompt of ours (${u.why})`);
    for (const d of cmp.firstDifferences) io.err(`env prompts: ${d.where}: our ${d.prompt} prompt first differs at character ${d.offset}`);
    return EXIT.ok;
  },
};

export const ENV_COMMANDS: readonly Command[] = [play, expert, corpus, serve, importGames, extractPrompts];
