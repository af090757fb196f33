// Test support (not exported): short world-model transitions whose observations a tiny model
// memorises in seconds (the model itself is mdlm-core's testing fixture, trainTinyWorldModel).
import { writeFileSync } from 'node:fs';
import type { ChatMessage } from '@diffworld/dataset';
import type { WorldModelRequest } from '@diffworld/env-core';
import { worldModelMessages } from './local.js';

const OBJECTS = ['mug', 'apple', 'knife', 'bowl', 'egg', 'pan'];

/** `count` requests and the observation each must produce (box i holds object i mod 6). */
export function tinyTransitions(count: number): { request: WorldModelRequest; observation: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    request: { system: `Room ${i % 3}`, history: [{ role: 'user', content: `Task ${i % 2}` }], action: `open box ${i}` },
    observation: `Box ${i} holds a ${OBJECTS[i % OBJECTS.length]}.`,
  }));
}

/** The chat rows of tinyTransitions (system, user turn, assistant observation). */
export function tinyRows(count: number): { messages: ChatMessage[] }[] {
  return tinyTransitions(count).map((t) => ({ messages: [...worldModelMessages(t.request), { role: 'assistant', content: t.observation }] }));
}

/** Writes rows as JSONL, one object a line. */
export function writeRows(path: string, rows: readonly object[]): void {
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
}
