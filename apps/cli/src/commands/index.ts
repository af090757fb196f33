// The command table: every `diffworld` command, in help order. Each entry names the module that
// implements it, and that module (with the packages it imports: ONNX Runtime, the engines, Arrow…)
// is loaded only when one of its commands runs, so `diffworld --help` and a small command start
// fast. Paths and summaries are repeated here for that reason; index.test.ts checks them against
// the modules, so a command added to a module without an entry here fails the tests.
import type { Command } from '../command.js';

/** The modules that define commands, each loaded on first use. */
export const COMMAND_MODULES = {
  data: async () => (await import('./data.js')).DATA_COMMANDS,
  env: async () => (await import('./env.js')).ENV_COMMANDS,
  eval: async () => (await import('./eval.js')).EVAL_COMMANDS,
  evalAgent: async () => (await import('./eval-agent.js')).EVAL_AGENT_COMMANDS,
  doctor: async () => (await import('./doctor.js')).DOCTOR_COMMANDS,
  tokenizer: async () => (await import('./tokenizer.js')).TOKENIZER_COMMANDS,
  wm: async () => (await import('./wm.js')).WM_COMMANDS,
  wmSample: async () => (await import('./wm-sample.js')).WM_SAMPLE_COMMANDS,
  evalWm: async () => (await import('./eval-wm.js')).EVAL_WM_COMMANDS,
  wmServe: async () => (await import('./wm-serve.js')).WM_SERVE_COMMANDS,
  repro: async () => (await import('./repro.js')).REPRO_COMMANDS,
  grpo: async () => (await import('./grpo.js')).GRPO_COMMANDS,
} satisfies Record<string, () => Promise<readonly Command[]>>;

export interface CommandEntry {
  /** Words after `diffworld`, e.g. ['data', 'validate']. */
  readonly path: readonly string[];
  readonly summary: string;
  readonly module: keyof typeof COMMAND_MODULES;
}

export const COMMANDS: readonly CommandEntry[] = [
  { path: ['data', 'validate'], module: 'data', summary: 'check every row of a corpus file (JSONL or Parquet)' },
  { path: ['data', 'convert'], module: 'data', summary: 'convert a corpus between JSONL and Parquet (by extension)' },
  { path: ['data', 'stats'], module: 'data', summary: 'rows, per-dataset and role counts, length percentiles' },
  { path: ['data', 'split'], module: 'data', summary: 'deterministic train/eval/test(/ood_test) split by content hash' },
  { path: ['data', 'diversify'], module: 'data', summary: 'seeded length diversification (middle truncation + sub-trajectories)' },
  { path: ['env', 'play'], module: 'env', summary: 'play an environment interactively (shows admissible commands)' },
  { path: ['env', 'expert'], module: 'env', summary: 'write the expert episode of every task of a split (episode records, JSONL)' },
  { path: ['env', 'corpus'], module: 'env', summary: 'generate world-model training rows from expert and perturbed episodes' },
  { path: ['env', 'serve'], module: 'env', summary: "serve an environment over HTTP (the reference's reset/step/close protocol)" },
  { path: ['env', 'import'], module: 'env', summary: "turn the paper's ALFWorld rows into games our engine plays (for env serve --games)" },
  { path: ['env', 'prompts', 'extract'], module: 'env', summary: "derive the paper's agent and world-model prompt templates from rows of its data (for --prompts)" },
  { path: ['eval', 'score'], module: 'eval', summary: 'score predictions vs references (exact/semantic match, ROUGE-L, BLEU, diversity, MAUVE)' },
  { path: ['eval', 'agent'], module: 'evalAgent', summary: 'evaluate a policy (expert | random | OpenAI-compatible URL) on an env split; report with charts' },
  { path: ['eval', 'wm'], module: 'evalWm', summary: 'generate and score a world model (checkpoint or URL) on chat rows: fidelity, diversity over K samples, MAUVE' },
  { path: ['wm', 'train'], module: 'wm', summary: 'train an MDLM / block-diffusion (SDAR) / AR world model on chat rows; resumable' },
  { path: ['wm', 'sample'], module: 'wmSample', summary: 'sample a world model checkpoint on one prompt (anchors, strategy, seed, temperature)' },
  { path: ['wm', 'generate'], module: 'wmSample', summary: "write a world model's outputs for chat rows (<name>_outputs.jsonl, the reference's rows); resumable" },
  { path: ['wm', 'export'], module: 'wm', summary: 'export a checkpoint to one standalone ONNX inference file (logits; optionally with a KV cache)' },
  { path: ['wm', 'serve'], module: 'wmServe', summary: "serve a world model over OpenAI chat completions and the paper's proxy route, with continuous or dynamic batching" },
  { path: ['grpo', 'train'], module: 'grpo', summary: 'the agent pipeline of one env: world model, SFT, GRPO in the world model and in the real engine, held-out success, report' },
  { path: ['repro'], module: 'repro', summary: "the paper's two questions at small scale: BD3 vs AR world models, and GRPO inside them; cached stages, report" },
  { path: ['doctor'], module: 'doctor', summary: 'check Node/ONNX Runtime, which execution providers work here, and their MatMul GFLOP/s' },
  { path: ['tokenizer', 'train'], module: 'tokenizer', summary: 'train a byte-level BPE tokenizer.json on chat rows or text files' },
  { path: ['tokenizer', 'encode'], module: 'tokenizer', summary: 'print the ids and pieces of a text' },
  { path: ['data', 'tokenize'], module: 'tokenizer', summary: 'tokenize chat rows into Arrow IPC shards (input_ids, loss_mask) on a worker pool' },
];

/** Loads the module of `entry` and returns its command. */
export async function loadCommand(entry: CommandEntry): Promise<Command> {
  const commands = await COMMAND_MODULES[entry.module]();
  const command = commands.find((c) => c.path.join(' ') === entry.path.join(' '));
  if (!command) throw new Error(`commands/index.ts lists "${entry.path.join(' ')}" in module ${entry.module}, which does not define it`);
  return command;
}
