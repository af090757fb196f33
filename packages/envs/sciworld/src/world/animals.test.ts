// ScienceWorld's animal names per life stage (its LifeStage classes' canonical names) and cycles.
import { describe, expect, it } from 'vitest';
import { ANIMALS, animalStageName, lifeStages, UnknownAnimalError } from './animals.js';

describe('animals', () => {
  it('names every stage as ScienceWorld does, overrides first', () => {
    const names = (a: string) => lifeStages(a).map((_, i) => animalStageName(a, i));
    expect(names('blue jay')).toEqual(['blue jay egg', 'hatchling blue jay', 'juvenile blue jay', 'adult blue jay', 'dead blue jay']);
    expect(names('crocodile')).toEqual(['crocodile egg', 'hatchling crocodile', 'juvenile crocodile', 'adult crocodile', 'dead crocodile']);
    expect(names('wolf')).toEqual(['baby wolf', 'juvenile wolf', 'adult wolf', 'dead wolf']);
    expect(names('moth')).toEqual(['butterfly egg', 'caterpillar', 'butterfly pupa', 'adult butterfly', 'dead butterfly']);
    expect(names('common toad')).toEqual(['frog egg', 'tadpole', 'adult frog', 'dead frog']);
  });

  it('gives every cycle 20 ticks a young stage, 50 as an adult and a dead stage that lasts', () => {
    for (const a of Object.keys(ANIMALS)) {
      const stages = lifeStages(a);
      expect(stages.at(-1)!.ticks).toBeUndefined();
      expect(stages.at(-2)).toMatchObject({ name: 'adult', ticks: 50 });
      for (const s of stages.slice(0, -2)) expect(s.ticks).toBe(20);
    }
  });

  it('refuses an animal without a cycle and a stage past the last', () => {
    expect(() => animalStageName('bee', 0)).toThrow(UnknownAnimalError);
    expect(() => animalStageName('wolf', 4)).toThrow(/no life stage 4/);
  });
});
