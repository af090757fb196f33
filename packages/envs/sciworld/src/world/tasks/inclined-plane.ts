// The inclined-plane tasks (determine angle; friction of named or unnamed surfaces): the real grids of
// plane pairs × block, close pairs dropped, the two questions alternating; one scored focus.
import type { Spawn } from '../layout.js';
import type { Match, Subgoal } from '../../engine/goals.js';
import { JavaRandom, scalaShuffle } from '../../engine/java-random.js';
import type { Builder, Contents, VariationBuild } from './variation.js';

/** Named surfaces in the real construction order, with ScienceWorld's friction coefficients and names. */
const NAMED_SURFACES: ReadonlyArray<readonly [string, number]> = [
  ['aluminum', 0.45],
  ['brass', 0.5],
  ['bronze', 0.4],
  ['caesium', 0.5],
  ['copper', 0.6],
  ['iron', 0.7],
  ['lead', 0.43],
  ['platinum', 0.8],
  ['steel', 0.6],
  ['tin', 0.3],
  ['titanium', 0.0],
  ['zinc', 0.62],
  ['glass', 0.2],
  ['plastic', 0.1],
  ['ceramic', 0.65],
  ['wood', 0.2],
  ['paper', 0.2],
  ['sandpaper', 0.98],
  ['cloth', 0.3],
  ['rubber', 0.95],
  ['chocolate', 0.32],
  ['soapy water', 0.06],
  ['greenpaint', 0.3],
];
/** The unnamed task's surfaces (unknown material B–J; A is left out by the real task). */
const UNKNOWN_SURFACES: ReadonlyArray<readonly [string, number]> = [
  ['unknown material B', 0.7],
  ['unknown material C', 0.4],
  ['unknown material D', 0.6],
  ['unknown material E', 0.2],
  ['unknown material F', 0.8],
  ['unknown material G', 0.3],
  ['unknown material H', 0.9],
  ['unknown material J', 0.9],
];
/** The angle task's planes (lettered, default surface friction 0.5), in the real order (not shuffled). */
const ANGLED_PLANES: ReadonlyArray<readonly [string, number]> = [
  ['B', 70],
  ['C', 80],
  ['D', 20],
  ['E', 10],
  ['F', 60],
  ['G', 40],
  ['H', 30],
  ['J', 50],
];
const DEFAULT_PLANE_FRICTION = 0.5;
const INCLINE_BLOCKS: ReadonlyArray<Spawn> = [
  { kind: 'block', name: 'wood block', material: 'wood', tags: ['block'] },
  { kind: 'block', name: 'steel block', material: 'steel', tags: ['block'] },
  { kind: 'block', name: 'brick', material: 'ceramic', tags: ['block'] },
];

interface Plane {
  /** The surface or letter the task names it by. */
  label: string;
  /** The name descriptions show (ScienceWorld's getDescriptName). */
  shown: string;
  angle: number;
  friction: number;
}

/**
 * ScienceWorld's inclined-plane grids: plane 1 × plane 2 × block (the last fastest), keeping only
 * pairs whose values differ by more than `threshold` (so never a plane with itself); the kept
 * combinations alternate between the task's two questions (`even`: the 0th, 2nd, … kept).
 */
function planeGrid(planes: Plane[], value: (p: Plane) => number, threshold: number): Array<{ pair: [Plane, Plane]; block: number; even: boolean }> {
  const out: Array<{ pair: [Plane, Plane]; block: number; even: boolean }> = [];
  for (const a of planes)
    for (const b of planes)
      for (let block = 0; block < INCLINE_BLOCKS.length; block++) {
        if (Math.abs(value(a) - value(b)) <= threshold) continue;
        out.push({ pair: [a, b], block, even: out.length % 2 === 0 });
      }
  return out;
}

const shuffled = <T>(seed: number, items: readonly T[]): T[] => scalaShuffle(new JavaRandom(seed), items);
const namedPlanes = (): Plane[] => shuffled(3, NAMED_SURFACES).map(([label, friction]) => ({ label, shown: `inclined plane with a ${label} surface`, angle: 45, friction }));
const unknownPlanes = (): Plane[] => shuffled(4, UNKNOWN_SURFACES).map(([label, friction]) => ({ label, shown: `inclined plane with a ${label} surface`, angle: 45, friction }));
const angledPlanes = (): Plane[] => ANGLED_PLANES.map(([label, angle]) => ({ label, shown: `inclined plane ${label}`, angle, friction: DEFAULT_PLANE_FRICTION }));

/** One plane's trial as ScienceWorld's optional goals from index `at`: the block directly on the plane, then the stopwatch on, off, read. */
function planeTrialGoals(at: number, plane: string): Subgoal[] {
  const watch: Match = { kind: 'stopwatch', nearAgent: true };
  return [
    { type: 'directlyIn', match: { tag: 'block' }, container: { tag: plane, nearAgent: true } },
    { type: 'after', after: [at], goal: { type: 'activated', match: watch } },
    { type: 'after', after: [at + 1], goal: { type: 'deactivated', match: watch } },
    { type: 'after', after: [at + 2], goal: { type: 'examinedSince', match: { kind: 'stopwatch' } } },
  ];
}

function inclineBuild(contents: Contents, pair: [Plane, Plane], block: number, answer: Plane, description: string): VariationBuild {
  contents.workshop.push(
    // Both planes are named "inclined plane"; the real listing shows the second one first (all recordings), so it is created first.
    ...pair.map((p, i): Spawn => ({ kind: 'inclined plane', name: 'inclined plane', shown: p.shown, angle: p.angle, friction: p.friction, tags: [`plane-${i}`] })).reverse(),
    { ...INCLINE_BLOCKS[block]!, tags: ['block'] },
  );
  if (!contents.workshop.some((s) => s.kind === 'stopwatch')) contents.workshop.push({ kind: 'stopwatch', tags: ['stopwatch'] });
  return {
    description,
    goals: {
      // The real task scores one thing: the focus on the right plane (any other plane fails it).
      ordered: [{ type: 'focus', match: { tag: `plane-${pair.indexOf(answer)}` }, failIfWrong: true }],
      // ScienceWorld's ten: moved anywhere new (done at once in the workshop), in the workshop, then
      // per plane: the block on it, the stopwatch on, off, and read (each after the one before).
      optional: [{ type: 'movedAway', unless: 'workshop' }, { type: 'inRoom', room: 'workshop' }, ...planeTrialGoals(2, 'plane-0'), ...planeTrialGoals(6, 'plane-1')],
    },
    plan: { kind: 'incline', answer: answer.shown },
  };
}

let angleGrid: ReturnType<typeof planeGrid> | undefined;
/** Steepest or shallowest (even kept combinations ask for the shallowest); planes named "(steepest, shallowest)". */
export const inclineAngle: Builder = (v, contents) => {
  const { pair, block, even } = (angleGrid ??= planeGrid(angledPlanes(), (p) => p.angle, 5))[v]!;
  const [steep, shallow] = pair[0].angle > pair[1].angle ? pair : [pair[1], pair[0]];
  const mode = even ? 'shallowest' : 'steepest';
  // The real task shuffles the two names for the description; all twelve recorded inclined-plane descriptions show them unshuffled.
  const description = `Your task is to determine which of the two inclined planes (${steep.label}, ${shallow.label}) has the ${mode} angle. After completing your experiment, focus on the inclined plane with the ${mode} angle.`;
  return inclineBuild(contents, pair, block, mode === 'steepest' ? steep : shallow, description);
};

const frictionGrids: Partial<Record<'named' | 'unnamed', ReturnType<typeof planeGrid>>> = {};
/** Most or least friction (even kept combinations ask for the most); planes named "(least, most)". */
export function inclineFriction(named: boolean): Builder {
  return (v, contents) => {
    const key = named ? 'named' : 'unnamed';
    const { pair, block, even } = (frictionGrids[key] ??= planeGrid(named ? namedPlanes() : unknownPlanes(), (p) => p.friction, 0.05))[v]!;
    const [least, most] = pair[0].friction < pair[1].friction ? pair : [pair[1], pair[0]];
    const mode = even ? 'most' : 'least';
    const description = `Your task is to determine which of the two inclined planes (${least.label}, ${most.label}) has the ${mode} friction. After completing your experiment, focus on the inclined plane with the ${mode} friction.`;
    return inclineBuild(contents, pair, block, mode === 'most' ? most : least, description);
  };
}
