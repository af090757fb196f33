// Piscina worker for k-means restarts. Worker threads do not inherit vitest's or tsx's TypeScript
// loading, so this plain .mjs loads the TypeScript module through tsx's scoped `tsImport`.
import { tsImport } from 'tsx/esm/api';

const { kmeansOnce } = await tsImport('./kmeans.ts', import.meta.url);

/** task: a KMeansTask whose `data` is a Float64Array over a SharedArrayBuffer (no copy). */
export default function run(task) {
  const r = kmeansOnce(task);
  return r;
}
