// The house's random draws and the change-of-state cup draws, against what the real recordings show
// for these variations (the paper's SciWorld split files): start room, pictures, shelves, workshop
// colours, mixing container, shovel, and the cups the metals come in.
import { describe, expect, it } from 'vitest';
import { drawHouse } from './house.js';
import { changeOfStateCups } from './tasks/task-draws.js';
import { decodeLastFastest } from './tasks/variation.js';

describe('drawHouse', () => {
  it('variation 23: bathroom start, finger paintings, a three-book shelf in the bedroom', () => {
    const h = drawHouse(23);
    expect(h.startRoom).toBe('bathroom');
    expect(h.pictures.kitchen.name).toBe('painting');
    expect(h.pictures.bedroom.name).toBe('finger painting');
    expect(h.pictures.hallway.name).toBe('finger painting');
    expect(h.shelves['living room']).toBeUndefined();
    expect(h.shelves.bedroom!.map((b) => b.title)).toEqual(['Moby Dick', 'Frankenstein', 'Beowulf']);
    expect(h.bulbs).toEqual(['yellow', 'orange', 'violet']);
    expect(h.wires).toEqual(['orange', 'blue', 'black']);
    expect(h.mixer).toBe('wood bowl');
    expect(h.shovelRoom).toBe('outside');
  });
  it('variation 0 starts in the hallway with a jug to mix in; variation 16 starts outside', () => {
    expect(drawHouse(0)).toMatchObject({ startRoom: 'hallway', mixer: 'jug', shovelRoom: 'greenhouse', livingRoomTable: 'desk' });
    expect(drawHouse(16).startRoom).toBe('outside');
  });
  it('the same variation always draws the same house', () => {
    const { rng: _a, ...a } = drawHouse(98);
    const { rng: _b, ...b } = drawHouse(98);
    expect(a).toEqual(b);
    expect(a.livingRoomTable).toBe('desk');
  });
});

describe('change-of-state cups', () => {
  it('draw per task in registration order (change, melt, boil, freeze)', () => {
    expect(changeOfStateCups(23, 'boil').tin).toBe('glass cup');
    expect(changeOfStateCups(23, 'change').tin).toBe('jug');
    expect(changeOfStateCups(23, 'melt').tin).toBe('paper cup');
    expect(changeOfStateCups(28, 'boil').caesium).toBe('ceramic cup');
    expect(changeOfStateCups(28, 'melt').caesium).toBe('plastic cup');
    expect(changeOfStateCups(28, 'freeze').caesium).toBe('tin cup');
  });
});

describe('decodeLastFastest', () => {
  it('enumerates nested loops with the last axis fastest', () => {
    expect(decodeLastFastest(23, [15, 2])).toEqual([11, 1]);
    expect(decodeLastFastest(28, [15, 2])).toEqual([14, 0]);
    expect(decodeLastFastest(5, [2, 3])).toEqual([1, 2]);
  });
});
