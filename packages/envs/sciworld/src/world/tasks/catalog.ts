// ScienceWorld's 30 task types (reference §2.2): id, name, topic, variation count, ETO step budget.
// `implemented` tasks have a variation builder in tasks/builders.ts.

export interface TaskInfo {
  id: string;
  name: string;
  topic: string;
  variations: number;
  /** ETO's per-task max steps (reference §2.8). */
  etoMaxSteps: number;
  /** Keeps electrical actions under the `easy` preset (power-component and conductivity tasks). */
  electrical?: boolean;
}

export const TASKS: readonly TaskInfo[] = [
  { id: '1-1', name: 'boil', topic: 'Matter', variations: 30, etoMaxSteps: 100 },
  { id: '1-2', name: 'melt', topic: 'Matter', variations: 30, etoMaxSteps: 80 },
  { id: '1-3', name: 'freeze', topic: 'Matter', variations: 30, etoMaxSteps: 80 },
  { id: '1-4', name: 'change-the-state-of-matter-of', topic: 'Matter', variations: 30, etoMaxSteps: 80 },
  { id: '2-1', name: 'use-thermometer', topic: 'Measurement', variations: 540, etoMaxSteps: 30 },
  { id: '2-2', name: 'measure-melting-point-known-substance', topic: 'Measurement', variations: 436, etoMaxSteps: 120 },
  { id: '2-3', name: 'measure-melting-point-unknown-substance', topic: 'Measurement', variations: 300, etoMaxSteps: 120 },
  { id: '3-1', name: 'power-component', topic: 'Electricity', variations: 20, etoMaxSteps: 20, electrical: true },
  { id: '3-2', name: 'power-component-renewable-vs-nonrenewable-energy', topic: 'Electricity', variations: 20, etoMaxSteps: 30, electrical: true },
  { id: '3-3', name: 'test-conductivity', topic: 'Electricity', variations: 900, etoMaxSteps: 30, electrical: true },
  { id: '3-4', name: 'test-conductivity-of-unknown-substances', topic: 'Electricity', variations: 600, etoMaxSteps: 30, electrical: true },
  { id: '4-1', name: 'find-living-thing', topic: 'Classification', variations: 300, etoMaxSteps: 15 },
  { id: '4-2', name: 'find-non-living-thing', topic: 'Classification', variations: 300, etoMaxSteps: 15 },
  { id: '4-3', name: 'find-plant', topic: 'Classification', variations: 300, etoMaxSteps: 15 },
  { id: '4-4', name: 'find-animal', topic: 'Classification', variations: 300, etoMaxSteps: 15 },
  { id: '5-1', name: 'grow-plant', topic: 'Biology', variations: 126, etoMaxSteps: 30 },
  { id: '5-2', name: 'grow-fruit', topic: 'Biology', variations: 126, etoMaxSteps: 60 },
  { id: '6-1', name: 'chemistry-mix', topic: 'Chemistry', variations: 32, etoMaxSteps: 60 },
  { id: '6-2', name: 'chemistry-mix-paint-secondary-color', topic: 'Chemistry', variations: 36, etoMaxSteps: 15 },
  { id: '6-3', name: 'chemistry-mix-paint-tertiary-color', topic: 'Chemistry', variations: 36, etoMaxSteps: 30 },
  { id: '7-1', name: 'lifespan-longest-lived', topic: 'Biology', variations: 125, etoMaxSteps: 10 },
  { id: '7-2', name: 'lifespan-shortest-lived', topic: 'Biology', variations: 125, etoMaxSteps: 10 },
  { id: '7-3', name: 'lifespan-longest-lived-then-shortest-lived', topic: 'Biology', variations: 125, etoMaxSteps: 12 },
  { id: '8-1', name: 'identify-life-stages-1', topic: 'Biology', variations: 14, etoMaxSteps: 30 },
  { id: '8-2', name: 'identify-life-stages-2', topic: 'Biology', variations: 10, etoMaxSteps: 30 },
  { id: '9-1', name: 'inclined-plane-determine-angle', topic: 'Forces', variations: 168, etoMaxSteps: 30 },
  { id: '9-2', name: 'inclined-plane-friction-named-surfaces', topic: 'Forces', variations: 1386, etoMaxSteps: 30 },
  { id: '9-3', name: 'inclined-plane-friction-unnamed-surfaces', topic: 'Forces', variations: 162, etoMaxSteps: 30 },
  { id: '10-1', name: 'mendelian-genetics-known-plant', topic: 'Biology', variations: 120, etoMaxSteps: 30 },
  { id: '10-2', name: 'mendelian-genetics-unknown-plant', topic: 'Biology', variations: 480, etoMaxSteps: 30 },
];

export function taskInfo(nameOrId: string): TaskInfo {
  const t = TASKS.find((x) => x.name === nameOrId || x.id === nameOrId);
  if (!t) throw new Error(`sciworld: unknown task '${nameOrId}'; known: ${TASKS.map((x) => x.name).join(', ')}`);
  return t;
}

export const SCIWORLD_SPLITS = ['train', 'dev', 'test'] as const;
export type SciworldSplit = (typeof SCIWORLD_SPLITS)[number];

/**
 * ScienceWorld's variation split (PythonInterface.getSets): groups of floor(N/4);
 * train = groups 0–1, dev = group 2, test = group 3 plus any remainder; special cases for N ≤ 4.
 */
export function splitVariations(n: number): Record<SciworldSplit, number[]> {
  const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
  if (n === 1) return { train: [0], dev: [], test: [0] };
  if (n === 2) return { train: [0], dev: [], test: [1] };
  if (n === 3) return { train: [0], dev: [1], test: [2] };
  if (n === 4) return { train: [0, 1], dev: [2], test: [3] };
  const g = Math.floor(n / 4);
  return { train: range(0, 2 * g), dev: range(2 * g, 3 * g), test: range(3 * g, n) };
}
