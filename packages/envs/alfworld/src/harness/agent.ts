// The paper's ALFWorld agent harness (alfworld_prompt.py): system prompt, user-turn format and
// action parsing (shared/reference/upstream-paper-repo.md §4.3).
import { extractActionLine, trimEndChars } from '@diffworld/env-core';
import { observationOfTurn } from '@diffworld/dataset';

export const AGENT_SYSTEM_PROMPT = [
  'You are an agent in a text-based household (ALFWorld). Each turn you receive an observation and the list of admissible commands.',
  'Your only output each turn is one line: `Action: <command>`, with the command copied verbatim from the admissible list. No prose, no markdown, no thoughts.',
  '',
  'Commands:',
  '- go to <recep>',
  '- open <recep> / close <recep>',
  '- take <obj> from <recep>',
  '- move <obj> to <recep>',
  '- use <obj>',
  '- clean <obj> with <recep> / heat <obj> with <recep> / cool <obj> with <recep>',
  '- slice <obj> with <obj>',
  '- examine <thing>',
  '- inventory',
  '- look',
  '',
  'How to solve a task:',
  '1. Read the goal after "Your task is to:".',
  '2. Go to the receptacles where the object is likely to be; open closed ones to look inside.',
  '3. Take the object (you can hold only one object at a time).',
  '4. If the goal says clean, hot or cool: clean it with a sinkbasin, heat it with a microwave, or cool it with a fridge.',
  '5. Go to the destination and move the object there (for "look at … under the lamp": hold the object and use the lamp).',
  '',
  'Common mistakes:',
  '- There is no "done" command: the episode ends by itself when the goal is reached.',
  '- "Nothing happens." means the command was not valid here; pick one from the admissible list.',
  '- Names always carry their number, e.g. "cabinet 3", "apple 1".',
].join('\n');

/** The user turn: `Observation:\n{obs}\n\nAdmissible commands:\n- …`; optionally only the first `limit` commands. */
export function formatUserTurn(observation: string, admissible: readonly string[], limit?: number): string {
  const cmds = limit === undefined ? admissible : admissible.slice(0, limit);
  return `Observation:\n${observation}\n\nAdmissible commands:\n${cmds.map((c) => `- ${c}`).join('\n')}`;
}

/**
 * Splits a user turn back into its observation (the responder replays observations). The dataset
 * owns the rule: its episode layout reads observations out of these turns the same way.
 */
export const observationOfUserTurn: (content: string) => string = observationOfTurn;

const ARTICLE_BEFORE_NAME = /\b(?:the|a|an) ([\w]+ \d+)/g;

/**
 * The reference's parse: drop think blocks; the `Action: …` line or else the first non-empty line;
 * strip trailing dots; lower-case the first character; drop an article before "word N".
 * Undefined when nothing is left.
 */
export function parseAlfworldAction(completion: string): string | undefined {
  let a = extractActionLine(completion);
  if (a === undefined) return undefined;
  a = trimEndChars(a, '.');
  a = a.charAt(0).toLowerCase() + a.slice(1);
  a = a.replace(ARTICLE_BEFORE_NAME, '$1').trim();
  return a === '' ? undefined : a;
}
