#!/usr/bin/env node
// `npx diffworld …` runs the TypeScript sources directly (no build step): tsx compiles on the fly,
// and the source-resolution hook makes in-repo packages resolve to their src/index.ts.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

register('./source-conditions.mjs', import.meta.url);
registerTsx();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
