// ALFWorld's transform rules as data (alfred.pddl's HeatObject / CoolObject / CleanObject): which
// appliance class does it, which object classes it applies to, which state flag it sets and which
// it clears. The engine, the expert, the game generator, the local responder, the belief tracker
// and the reward all read them from here.
import { CLEANABLE, COOLABLE, HEATABLE, type ClassName } from './vocab.js';

/** The state flags transforms set; `examine` words them "hot", "cold" and "clean". */
export type TransformFlag = 'hot' | 'cool' | 'clean';

export interface TransformRule {
  /** Receptacle classes that perform it (the agent stands at one; it need not be open). */
  readonly appliances: readonly ClassName[];
  /** Object classes it applies to (the object must be held). */
  readonly objects: ReadonlySet<ClassName>;
  readonly sets: TransformFlag;
  /** Heating makes a cold object warm and cooling a hot one cold. */
  readonly clears?: TransformFlag;
}

export const TRANSFORMS = ['heat', 'cool', 'clean'] as const;
export type Transform = (typeof TRANSFORMS)[number];

export const TRANSFORM_RULES: Readonly<Record<Transform, TransformRule>> = {
  heat: { appliances: ['microwave'], objects: HEATABLE, sets: 'hot', clears: 'cool' },
  cool: { appliances: ['fridge'], objects: COOLABLE, sets: 'cool', clears: 'hot' },
  // CleanObject's precondition names SinkBasinType only: a bathtub basin cleans nothing.
  clean: { appliances: ['sinkbasin'], objects: CLEANABLE, sets: 'clean' },
};

export function isTransform(word: string): word is Transform {
  return (TRANSFORMS as readonly string[]).includes(word);
}

/** Whether `transform` applies to a held object of class `objectClass` at a receptacle of class `applianceClass`. */
export function canTransform(transform: Transform, objectClass: ClassName, applianceClass: ClassName): boolean {
  const rule = TRANSFORM_RULES[transform];
  return rule.appliances.includes(applianceClass) && rule.objects.has(objectClass);
}

/** Applies a transform's effect to an object's flags (in place). */
export function applyTransform(flags: Record<TransformFlag, boolean>, transform: Transform): void {
  const rule = TRANSFORM_RULES[transform];
  flags[rule.sets] = true;
  if (rule.clears) flags[rule.clears] = false;
}
