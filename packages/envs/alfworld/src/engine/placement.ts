// Where objects start, as rates per receptacle instance from the counts of the paper's real games
// (world/placement-counts.ts): the generator samples an object's receptacle with probability
// proportional to its rate, and the searching expert explores receptacles in the order of these
// rates, so a policy that imitates the expert has a prior it can learn from the text alone.
//
// Smoothing: rate(o, C) = (seen + k·pooled(o)) / (exposure + k), with pooled(o) the object's rate
// over every class that can hold it and k = 2 pseudo-receptacles. A pair the real games never
// showed together gets the pooled rate (as if uniform); one shown often and never holding the
// object gets a small rate, not zero (our vocabulary allows it). An object class the games never
// listed is uniform over its hosts.
import type { Rng } from '@diffworld/env-core';
import { PLACEMENT_COUNTS } from '../world/placement-counts.js';
import { FIXED_PLACEMENT, canContain } from '../world/vocab.js';

const PSEUDO_RECEPTACLES = 2;

/** Whether a receptacle class can hold the object class at the start (canContain, or where lamps and scenery stand). */
export function canHost(receptacleClass: string, objectClass: string): boolean {
  return canContain(receptacleClass, objectClass) || (FIXED_PLACEMENT[objectClass]?.includes(receptacleClass) ?? false);
}

interface ObjectRates {
  pooled: number;
  byReceptacle: Map<string, { seen: number; exposure: number }>;
}

const byObject = new Map<string, ObjectRates>();
for (const [obj, rec, seen, exposure] of PLACEMENT_COUNTS) {
  let o = byObject.get(obj);
  if (!o) byObject.set(obj, (o = { pooled: 0, byReceptacle: new Map() }));
  o.byReceptacle.set(rec, { seen, exposure });
}
for (const [obj, o] of byObject) {
  let seen = 0;
  let exposure = 0;
  for (const [rec, c] of o.byReceptacle) if (canHost(rec, obj)) (seen += c.seen), (exposure += c.exposure);
  o.pooled = seen > 0 ? seen / exposure : 1;
}

/** The smoothed rate at which one receptacle of class `receptacleClass` holds an object of `objectClass` at the start (> 0; 0 where it cannot host it). */
export function placementRate(objectClass: string, receptacleClass: string): number {
  if (!canHost(receptacleClass, objectClass)) return 0;
  const o = byObject.get(objectClass);
  if (!o) return 1;
  const c = o.byReceptacle.get(receptacleClass) ?? { seen: 0, exposure: 0 };
  return (c.seen + PSEUDO_RECEPTACLES * o.pooled) / (c.exposure + PSEUDO_RECEPTACLES);
}

/** One item drawn with probability proportional to its weight (weights ≥ 0, not all 0). */
export function pickWeighted<T>(rng: Rng, items: readonly T[], weight: (item: T) => number): T {
  const weights = items.map(weight);
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) throw new RangeError('pickWeighted: no item has a positive weight');
  let x = rng.float() * total;
  for (let i = 0; i < items.length; i++) {
    x -= weights[i]!;
    if (x < 0) return items[i]!;
  }
  // Rounding can leave x a hair above 0 after the last positive weight.
  return items[weights.findLastIndex((w) => w > 0)]!;
}
