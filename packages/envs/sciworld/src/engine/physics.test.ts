// Physics by data: heat flows along containment as ScienceWorld's tick passes it, states follow melting/boiling points, combustion
// leaves ash, sinks fill containers, plants grow with soil and water, circuits need a closed loop.
import { describe, expect, it } from 'vitest';
import { World, type Obj } from './world.js';
import { referents } from './parser.js';
import { tick } from './physics.js';
import { sub, type Spawn } from '../world/layout.js';
import { stateAt } from '../world/materials.js';

function world(kitchen: Spawn[]): World {
  return World.build({ kitchen } as never, { openDoors: true, agentRoom: 'kitchen', inventory: [] });
}
const run = (w: World, n: number, selfWatering = false) => {
  for (let i = 0; i < n; i++) tick(w, { selfWateringFlowerPots: selfWatering });
};
const byName = (w: World, name: string) => w.objs.find((o) => !o.removed && w.name(o) === name);

describe('physics', () => {
  it('passes heat as ScienceWorld does: the stove warms the pot by 10% of the gap, the pot and water exchange at 0.1 x the lesser conductivity', () => {
    const w = world([{ kind: 'stove', on: true, contents: [{ kind: 'metal pot', contents: [sub('water')] }] }]);
    run(w, 1);
    // Pot: 10 + 0.1·(260 − 10) = 35, then 35 + 0.05·(10 − 35) = 33.75; water: 10 + 0.05·(33.75 − 10).
    expect(w.objs.find((o) => o.kind === 'metal pot')!.temperature).toBeCloseTo(33.75, 10);
    expect(byName(w, 'water')!.temperature).toBeCloseTo(11.1875, 10);
  });
  it('boils water in a pot on an active stove, and not on a cold one', () => {
    const w = world([{ kind: 'stove', on: true, contents: [{ kind: 'metal pot', contents: [sub('water')] }] }]);
    run(w, 20);
    expect(byName(w, 'steam')).toBeUndefined();
    run(w, 1);
    expect(byName(w, 'steam')).toBeDefined();
    const cold = world([{ kind: 'stove', contents: [{ kind: 'metal pot', contents: [sub('water')] }] }]);
    run(cold, 20);
    expect(byName(cold, 'water')!.temperature).toBe(10);
  });
  it("warms a room's things with its 25 °C air at 0.1 × air's 0.01 of the gap, the later-created thing first", () => {
    const w = world([{ kind: 'thermometer' }]);
    const air = byName(w, 'air')!;
    const thermometer = w.objs.find((o) => o.kind === 'thermometer')!;
    expect([air.temperature, thermometer.temperature]).toEqual([25, 10]);
    run(w, 1);
    expect(thermometer.temperature).toBeCloseTo(10 + 0.001 * 15, 12);
    expect(air.temperature).toBeCloseTo(25 - 0.001 * (25 - 10.015), 12);
    run(w, 11);
    expect(thermometer.temperature).toBeGreaterThan(10.15);
    expect(w.describe(thermometer)).toContain('reading a temperature of 10 degrees celsius');
  });
  it('a fridge cools while on (it starts on) and stops once deactivated, saying so', () => {
    const w = world([{ kind: 'fridge', contents: [{ kind: 'tin cup' }] }]);
    const fridge = w.objs.find((o) => o.kind === 'fridge')!;
    const cup = w.objs.find((o) => o.kind === 'tin cup')!;
    expect(fridge.isOn).toBe(true);
    expect(w.describe(fridge)).toBe('a fridge. The fridge door is closed. ');
    run(w, 1);
    expect(cup.temperature).toBeCloseTo(10 + 0.1 * (2 - 10), 12);
    fridge.isOn = false;
    expect(w.describe(fridge)).toBe('a fridge, which is turned off. The fridge door is closed. ');
    const before = cup.temperature;
    run(w, 1);
    expect(cup.temperature).toBe(before);
  });
  it('decides states as ScienceWorld: liquid at the melting and at the boiling point themselves', () => {
    expect(stateAt('water', -1e-9)).toBe('solid');
    expect(stateAt('water', 0)).toBe('liquid');
    expect(stateAt('water', 100)).toBe('liquid');
    expect(stateAt('water', 100 + 1e-9)).toBe('gas');
  });
  it('carried things exchange only with each other (the agent has no material)', () => {
    const w = World.build({ kitchen: [] } as never, { openDoors: true, agentRoom: 'kitchen', inventory: [{ kind: 'metal pot', temperature: 50 }, sub('acetic acid')] });
    run(w, 1);
    // acetic acid (0.2) and steel (1.0): 0.02 of the gap, the acid first, then the pot towards it.
    const acid = byName(w, 'solid acetic acid') ?? byName(w, 'acetic acid');
    expect(acid!.temperature).toBeCloseTo(10.8, 10);
    expect(w.objs.find((o) => o.kind === 'metal pot')!.temperature).toBeCloseTo(50 - 0.02 * (50 - 10.8), 10);
    expect(w.name(acid!)).toBe('solid acetic acid');
  });
  it('freezes in a freezer, barely warms in the air (low conductivity), melts back on a stove', () => {
    const w = world([
      { kind: 'freezer', contents: [{ kind: 'tin cup', contents: [sub('orange juice')] }] },
      { kind: 'stove', on: true },
    ]);
    run(w, 21);
    const juice = w.objs.find((o) => o.material === 'orange juice')!;
    expect(w.name(juice)).toBe('solid orange juice');
    const cup = w.get(juice.parent);
    // Cup and juice even out between themselves; the room's air (0.01) adds almost nothing.
    const heat = () => cup.temperature + juice.temperature;
    const cold = heat();
    w.moveTo(cup.id, w.room('kitchen'));
    run(w, 15);
    expect(w.name(juice)).toBe('solid orange juice');
    expect(heat() - cold).toBeGreaterThan(0);
    expect(heat() - cold).toBeLessThan(1);
    w.moveTo(cup.id, w.objs.find((o) => o.kind === 'stove')!.id);
    let ticks = 0;
    while (w.name(juice) === 'solid orange juice' && ticks < 30) run(w, 1), ticks++;
    expect(w.name(juice)).toBe('orange juice');
  });
  it('combusts chocolate on a stove (no boiling point) into ash', () => {
    const w = world([{ kind: 'stove', on: true, contents: [{ kind: 'metal pot', contents: [sub('chocolate')] }] }]);
    run(w, 19);
    expect(byName(w, 'ash')).toBeUndefined();
    run(w, 1);
    expect(byName(w, 'ash')).toBeDefined();
  });
  it('an active sink fills an open container with water', () => {
    const w = world([{ kind: 'sink', on: true, contents: [{ kind: 'jug' }] }]);
    run(w, 1);
    expect(w.describe(w.objs.find((o) => o.kind === 'sink')!)).toBe('a sink, which is turned on. In the sink is: a jug (containing a substance called water).');
  });
  it("grows a seed through its stages only with soil and water, at ScienceWorld's pace, and flowers", () => {
    const dry = world([{ kind: 'flower pot', contents: [{ kind: 'plant', species: 'pea', stage: 0 }, sub('soil')] }]);
    run(dry, 30);
    expect(dry.objs.find((o) => o.kind === 'plant')!.stage).toBe(0);
    const wet = world([{ kind: 'flower pot', contents: [{ kind: 'plant', species: 'pea', stage: 0 }, sub('soil')] }]);
    const plant = wet.objs.find((o) => o.kind === 'plant')!;
    const pot = wet.get(plant.parent);
    const hasWater = () => pot.contents.some((c) => wet.get(c).material === 'water');
    // seed 10 ticks, seedling 10, adult 5; each sprouting drinks the pot's water (refilled the next tick)
    run(wet, 9, true);
    expect([plant.stage, hasWater()]).toEqual([0, true]);
    run(wet, 1, true);
    expect([plant.stage, hasWater()]).toEqual([1, false]);
    run(wet, 10, true);
    expect(plant.stage).toBe(2);
    run(wet, 1, true);
    expect(hasWater()).toBe(false); // a grown plant drinks every tick
    run(wet, 4, true);
    expect(wet.describe(plant)).toBe('a pea plant in the reproducing stage');
    run(wet, 5, true);
    expect(wet.describe(plant)).toBe('a pea plant in the reproducing stage. On the pea plant you see: a flower. ');
  });
  it('two seeds in one pot compete: the first grows and drinks, the second stays a seedling, looks unwell after 10 dry ticks, dies after 20', () => {
    const w = world([{ kind: 'flower pot', contents: [{ kind: 'plant', species: 'pea', stage: 0 }, { kind: 'plant', species: 'pea', stage: 0 }, sub('soil')] }]);
    const [first, second] = w.objs.filter((o) => o.kind === 'plant') as [Obj, Obj];
    // The first sprouts at tick 10 and drinks the water; the second sprouts a tick later.
    run(w, 11, true);
    expect([first.stage, second.stage]).toEqual([1, 1]);
    // At tick 20 the first turns adult and from then on drinks the refilled water before the second sees it.
    run(w, 9, true);
    expect([first.stage, second.stage]).toEqual([2, 1]);
    run(w, 8, true);
    expect(w.describe(second)).toBe('a pea plant in the seedling stage');
    run(w, 1, true);
    expect(w.describe(second)).toBe('a pea plant in the seedling stage (that looks unwell)');
    expect(referents(w, second, w.room('kitchen'))).toContain('sick pea plant in seedling stage');
    run(w, 9, true);
    expect(second.stage).toBe(1);
    run(w, 1, true);
    expect(w.describe(second)).toBe('a dead pea plant');
    expect(w.describe(first)).toBe('a pea plant in the reproducing stage. On the pea plant you see: a flower. ');
  });
  it('a grown plant without soil looks unwell after 2 ticks and dies after 5, its flower withering', () => {
    const w = world([{ kind: 'flower pot', contents: [{ kind: 'plant', species: 'pea', stage: 3, contents: [{ kind: 'flower' }] }] }]);
    const plant = w.objs.find((o) => o.kind === 'plant')!;
    run(w, 1, true);
    expect(w.describe(plant)).toBe('a pea plant in the reproducing stage. On the pea plant you see: a flower. ');
    run(w, 1, true);
    expect(w.describe(plant)).toBe('a pea plant in the reproducing stage (that looks unwell). On the pea plant you see: a flower. ');
    run(w, 3, true);
    expect(w.describe(plant)).toBe('a dead pea plant');
    run(w, 1, true); // the dead plant's own tick drops what it holds
    expect(w.objs.some((o) => o.kind === 'flower' && !o.removed)).toBe(false);
  });
  it('powers a bulb only through a closed loop of conductors', () => {
    const w = world([
      { kind: 'battery' },
      { kind: 'light bulb', name: 'red light bulb' },
      { kind: 'wire', name: 'a wire' },
      { kind: 'wire', name: 'b wire' },
      { kind: 'conductor item', name: 'glass rod', material: 'glass' },
    ]);
    const t = (name: string, i: number) => w.get(byName(w, name)!.contents[i]!);
    const link = (a: ReturnType<typeof t>, b: ReturnType<typeof t>) => (a.links.push(b.id), b.links.push(a.id));
    // The battery's anode (terminal 0) to the bulb's cathode (1), the bulb's anode (0) on to the battery's cathode.
    link(t('battery', 0), t('a wire', 0));
    link(t('a wire', 1), t('red light bulb', 1));
    link(t('red light bulb', 0), t('b wire', 0));
    run(w, 1);
    expect(byName(w, 'red light bulb')!.isOn).toBe(false);
    link(t('b wire', 1), t('battery', 1));
    run(w, 1);
    expect(byName(w, 'red light bulb')!.isOn).toBe(true);
  });
  it('bees cross-pollinate two flowering plants of a kind into fruit', () => {
    const pot = (): Spawn => ({ kind: 'flower pot', contents: [{ kind: 'plant', species: 'pear', stage: 3 }] });
    const lonely = world([pot(), { kind: 'animal', species: 'bee', stage: 2 }]);
    run(lonely, 10);
    expect(lonely.objs.some((o) => o.tags.includes('fruit'))).toBe(false);
    const noBees = world([pot(), pot()]);
    run(noBees, 10);
    expect(noBees.objs.some((o) => o.tags.includes('fruit'))).toBe(false);
    const orchard = world([pot(), pot(), { kind: 'animal', species: 'bee', stage: 2 }]);
    run(orchard, 10);
    expect(orchard.objs.filter((o) => o.tags.includes('fruit')).map((o) => orchard.name(o))).toEqual(['pear', 'pear']);
  });
  it('a cross of true-breeding parents gives a hybrid seed that shows the dominant value', () => {
    const parent = (allele: boolean): Spawn => ({
      kind: 'flower pot',
      contents: [{ kind: 'plant', species: 'pea', stage: 3, genes: { trait: 'flower color', values: ['purple', 'white'], firstDominant: true, alleles: [allele, allele] } }, sub('soil')],
    });
    const w = world([parent(true), parent(false), { kind: 'animal', species: 'bee', stage: 2 }]);
    run(w, 4, true);
    const kids = w.objs.filter((o) => o.tags.includes('offspring'));
    expect(kids).toHaveLength(2);
    // In its parent's pot a hybrid seed never sees water: the grown parent, first in the pot, drinks it.
    run(w, 22, true);
    for (const kid of kids) expect(w.describe(kid)).toBe('a pea seed');
    // Bedded out in pots of their own, they grow.
    for (const kid of kids) w.moveTo(kid.id, w.create({ kind: 'flower pot', contents: [sub('soil')] }, w.room('kitchen')).id);
    run(w, 22, true);
    for (const kid of kids) expect(w.describe(kid)).toBe('a pea plant in the adult stage with purple flower color');
    expect(w.describe(w.objs.find((o) => o.genes?.alleles[0] === false && o.genes.alleles[1] === false)!)).toBe(
      'a pea plant in the reproducing stage with white flower color. On the pea plant you see: a flower. ',
    );
  });
});
