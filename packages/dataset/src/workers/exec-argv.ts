// Worker threads start without the parent's module-resolution hooks (the CLI's source-resolution
// hook, vitest's, tsx's), so a worker that imports @diffworld/* while the workspace runs from its
// TypeScript sources would resolve to the unbuilt dist/ (ERR_MODULE_NOT_FOUND …/dist/index.js).
// Every worker pool passes this execArgv instead: the "@diffworld/source" export condition makes
// Node's own resolver pick each package's src/index.ts in the worker, with no hook needed.

export const SOURCE_CONDITION = '--conditions=@diffworld/source';

/**
 * The execArgv for a worker pool started by the module at `moduleUrl` (its `import.meta.url`): the
 * parent's flags, plus the source condition when that module runs from TypeScript sources. Built
 * code (a .js module) gets the parent's flags only, so its workers load the built packages.
 */
export function workerExecArgv(moduleUrl: string, parentExecArgv: readonly string[] = process.execArgv): string[] {
  const inherited = parentExecArgv.filter((a) => a !== SOURCE_CONDITION);
  return runsFromSource(moduleUrl) ? [...inherited, SOURCE_CONDITION] : inherited;
}

/** Whether the module at `moduleUrl` is a TypeScript source (tsx, vitest) rather than built JavaScript. */
function runsFromSource(moduleUrl: string): boolean {
  return /\.[cm]?ts$/.test(new URL(moduleUrl).pathname);
}

/**
 * The file URL a worker pool started by the module at `moduleUrl` loads, both paths relative to that
 * module. From sources it is `source`, a plain .mjs shim that registers tsx (worker threads start
 * without the parent's TypeScript loader) and imports the task; a build has no such shim (tsc emits
 * only .ts inputs, and the shim imports .ts files and tsx), so there it is `built`, the compiled task
 * module, which must default-export the task function.
 */
export function workerEntry(moduleUrl: string, entries: { source: string; built: string }): string {
  return new URL(runsFromSource(moduleUrl) ? entries.source : entries.built, moduleUrl).href;
}
