// The static table of every implemented API, keyed `<app>__<api>` (the harness's tool names).
import { amazonApis } from './apps/amazon/index.js';
import { apiDocsApis } from './apps/api_docs.js';
import { fileSystemApis } from './apps/file_system.js';
import { gmailApis } from './apps/gmail/index.js';
import { phoneApis } from './apps/phone.js';
import { simpleNoteApis } from './apps/simple_note.js';
import { splitwiseApis } from './apps/splitwise/index.js';
import { spotifyApis } from './apps/spotify/index.js';
import { supervisorApis } from './apps/supervisor.js';
import { todoistApis } from './apps/todoist/index.js';
import { venmoApis } from './apps/venmo/index.js';
import type { ApiDef } from './types.js';

/** The apps in AppWorld's listing order; every one has all of its APIs. */
export const APPS = ['api_docs', 'supervisor', 'amazon', 'phone', 'file_system', 'spotify', 'venmo', 'gmail', 'splitwise', 'simple_note', 'todoist'] as const;

export type AppName = (typeof APPS)[number];

function build(): ReadonlyMap<string, ApiDef> {
  const map = new Map<string, ApiDef>();
  const docs = apiDocsApis(
    () => map,
    () => APPS,
  );
  for (const api of [...docs, ...supervisorApis, ...phoneApis, ...fileSystemApis, ...spotifyApis, ...venmoApis, ...simpleNoteApis, ...amazonApis, ...gmailApis, ...splitwiseApis, ...todoistApis]) {
    const key = `${api.app}__${api.name}`;
    if (map.has(key)) throw new Error(`AppWorld registry: duplicate API ${key}`);
    map.set(key, api);
  }
  return map;
}

export const API_REGISTRY: ReadonlyMap<string, ApiDef> = build();

export function toolName(app: string, api: string): string {
  return `${app}__${api}`;
}
