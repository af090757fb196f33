import { describe, expect, it } from 'vitest';
import { COMMAND_MODULES, COMMANDS } from './index.js';

describe('command table', () => {
  it('lists exactly the commands its modules define, with their summaries', async () => {
    const defined: string[] = [];
    for (const [module, load] of Object.entries(COMMAND_MODULES)) {
      for (const c of await load()) defined.push(`${module}: ${c.path.join(' ')} — ${c.summary}`);
    }
    const listed = COMMANDS.map((c) => `${c.module}: ${c.path.join(' ')} — ${c.summary}`);
    expect(listed.slice().sort()).toEqual(defined.slice().sort());
  });
});
