// Every task type's variation builder, by task name; each family's builders live in its own file.
import { stateBuilder } from './change-of-state.js';
import { chemistryMix, paintSecondary, paintTertiary } from './chemistry.js';
import { testConductivity, testConductivityUnknown } from './conductivity.js';
import { findBuilder } from './find.js';
import { mendelKnown, mendelUnknown } from './genetics.js';
import { growFruit, growPlant } from './grow.js';
import { inclineAngle, inclineFriction } from './inclined-plane.js';
import { lifespanBuilder } from './lifespan.js';
import { lifeStagesAnimal, lifeStagesPlant } from './life-stages.js';
import { meltingPoint, meltingPointUnknown, useThermometer } from './measurement.js';
import { powerComponent, powerRenewable } from './power.js';
import type { Builder } from './variation.js';

export const BUILDERS: Readonly<Record<string, Builder>> = {
  boil: stateBuilder('boil'),
  melt: stateBuilder('melt'),
  freeze: stateBuilder('freeze'),
  'change-the-state-of-matter-of': stateBuilder('change'),
  'use-thermometer': useThermometer,
  'measure-melting-point-known-substance': meltingPoint,
  'measure-melting-point-unknown-substance': meltingPointUnknown,
  'power-component': powerComponent,
  'power-component-renewable-vs-nonrenewable-energy': powerRenewable,
  'test-conductivity': testConductivity,
  'test-conductivity-of-unknown-substances': testConductivityUnknown,
  'find-living-thing': findBuilder('living'),
  'find-non-living-thing': findBuilder('nonliving'),
  'find-plant': findBuilder('plant'),
  'find-animal': findBuilder('animal'),
  'lifespan-longest-lived': lifespanBuilder('longest'),
  'lifespan-shortest-lived': lifespanBuilder('shortest'),
  'lifespan-longest-lived-then-shortest-lived': lifespanBuilder('both'),
  'chemistry-mix': chemistryMix,
  'chemistry-mix-paint-secondary-color': paintSecondary,
  'chemistry-mix-paint-tertiary-color': paintTertiary,
  'grow-plant': growPlant,
  'grow-fruit': growFruit,
  'identify-life-stages-1': lifeStagesAnimal,
  'inclined-plane-determine-angle': inclineAngle,
  'mendelian-genetics-known-plant': mendelKnown,
  'mendelian-genetics-unknown-plant': mendelUnknown,
  'inclined-plane-friction-named-surfaces': inclineFriction(true),
  'inclined-plane-friction-unnamed-surfaces': inclineFriction(false),
  'identify-life-stages-2': lifeStagesPlant,
};
