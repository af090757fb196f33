// Parsing helpers shared by the environment harnesses. Each env composes these into its own
// `parseAction`, as the reference harnesses differ in the details.

const THINK_BLOCK = /<think>[\s\S]*?<\/think>/g;
const DANGLING_THINK = /<\/?think\s*>/g;

/** Removes `<think>…</think>` blocks (non-greedy, all of them), then any unpaired think tag. */
export function stripThink(text: string): string {
  return text.replace(THINK_BLOCK, '').replace(DANGLING_THINK, '');
}

const ACTION_LINE = /^\s*Action\s*:\s*(.+?)\s*$/im;

/**
 * The reference's ALFWorld-style extraction: the first `Action: …` line (case-insensitive), else the
 * first non-empty line; undefined when there is none.
 */
export function extractActionLine(completion: string): string | undefined {
  const text = stripThink(completion);
  const m = ACTION_LINE.exec(text);
  if (m) return m[1];
  const first = text.split('\n').find((line) => line.trim() !== '');
  return first?.trim();
}

/** Characters of prose before the `Action:` line (think blocks removed), for format penalties. */
export function proseBeforeAction(completion: string): number {
  const text = stripThink(completion);
  const m = ACTION_LINE.exec(text);
  if (!m) return text.trim().length;
  return text.slice(0, m.index).trim().length;
}
