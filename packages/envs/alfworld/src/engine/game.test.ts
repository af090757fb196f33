import { describe, expect, it } from 'vitest';
import { buildScene, type SceneSketch } from '../testing/scenes.js';
import { AlfworldGame } from './game.js';
import { runOracle } from './oracle.js';
import { replayBelief } from '../harness/belief.js';
import { respondTo } from '../harness/responder.js';
import { bakeScene } from '../harness/scene-prompt.js';

const HOUSE: SceneSketch = {
  locations: [['cabinet 1', 'cabinet 2'], ['countertop 1'], ['sinkbasin 1'], ['toilet 1'], ['drawer 1'], ['microwave 1'], ['fridge 1'], ['desk 1'], ['cabinet 3']],
  objects: {
    'soapbar 1': 'cabinet 2',
    'spraybottle 2': 'cabinet 2',
    'candle 1': 'cabinet 2',
    'apple 3': 'countertop 1',
    'egg 2': 'countertop 1',
    'knife 1': 'countertop 1',
    'desklamp 1': 'desk 1',
    'mug 1': 'fridge 1',
  },
  doorless: ['drawer 1'],
  goal: { taskType: 'pick_clean_then_place_in_recep', text: 'clean some soapbar and put it in toilet', obj: 'soapbar', recep: 'toilet' },
};

function play(game: AlfworldGame, commands: string[]): string[] {
  return commands.map((c) => game.step(c).feedback);
}

describe('ALFWorld transcripts (current grammar)', () => {
  it('prints the welcome text with receptacles alphabetical by class, numbers descending', () => {
    const g = new AlfworldGame(buildScene(HOUSE));
    expect(g.intro()).toBe(
      '-= Welcome to TextWorld, ALFRED! =-\n\n' +
        'You are in the middle of a room. Looking quickly around you, you see a cabinet 3, a cabinet 2, a cabinet 1, a countertop 1, a desk 1, a drawer 1, a fridge 1, a microwave 1, a sinkbasin 1, and a toilet 1.\n\n' +
        'Your task is to: clean some soapbar and put it in toilet.',
    );
    expect(g.admissibleCommands()).toEqual([
      'go to cabinet 1',
      'go to cabinet 2',
      'go to cabinet 3',
      'go to countertop 1',
      'go to desk 1',
      'go to drawer 1',
      'go to fridge 1',
      'go to microwave 1',
      'go to sinkbasin 1',
      'go to toilet 1',
      'help',
      'inventory',
      'look',
    ]);
  });

  it('plays a clean-and-place task with exact feedback for every command type', () => {
    const g = new AlfworldGame(buildScene(HOUSE));
    // The welcome text lists every receptacle, but `look` from the middle of the room lists none (as the real game).
    expect(play(g, ['look', 'inventory', 'go to cabinet 1'])).toEqual([
      'You are in the middle of a room. Looking quickly around you, you see nothing.',
      'You are not carrying anything.',
      'You arrive at cabinet 1. The cabinet 1 is closed.',
    ]);
    // Co-located receptacles: both get open/examine, neither gets "go to".
    expect(g.admissibleCommands()).toEqual([
      'examine cabinet 1',
      'examine cabinet 2',
      'go to cabinet 3',
      'go to countertop 1',
      'go to desk 1',
      'go to drawer 1',
      'go to fridge 1',
      'go to microwave 1',
      'go to sinkbasin 1',
      'go to toilet 1',
      'help',
      'inventory',
      'look',
      'open cabinet 1',
      'open cabinet 2',
    ]);
    expect(play(g, ['look', 'open cabinet 1', 'open cabinet 2', 'examine cabinet 2', 'take soapbar 1 from cabinet 2'])).toEqual([
      'You are facing the cabinet 2, and cabinet 1. Next to it, you see nothing.',
      'You open the cabinet 1. The cabinet 1 is open. In it, you see nothing.',
      'You open the cabinet 2. The cabinet 2 is open. In it, you see a candle 1, a soapbar 1, and a spraybottle 2.',
      'The cabinet 2 is open. In it, you see a candle 1, a soapbar 1, and a spraybottle 2.',
      'You pick up the soapbar 1 from the cabinet 2.',
    ]);
    // One object in hand: no more takes.
    expect(g.admissibleCommands().filter((c) => c.startsWith('take'))).toEqual([]);
    expect(play(g, ['take candle 1 from cabinet 2', 'inventory', 'examine soapbar 1', 'close cabinet 2', 'examine cabinet 2'])).toEqual([
      'Nothing happens.',
      'You are carrying: a soapbar 1.',
      "There's nothing special about soapbar 1.",
      'You close the cabinet 2.',
      'The cabinet 2 is closed.',
    ]);
    expect(play(g, ['go to sinkbasin 1', 'clean soapbar 1 with sinkbasin 1', 'examine soapbar 1', 'go to toilet 1'])).toEqual([
      'You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.',
      'You clean the soapbar 1 using the sinkbasin 1.',
      'This is a clean soapbar 1.',
      'You arrive at toilet 1. On the toilet 1, you see nothing.',
    ]);
    expect(g.won).toBe(false);
    expect(g.admissibleCommands()).toContain('move soapbar 1 to toilet 1');
    const last = g.step('move soapbar 1 to toilet 1');
    expect(last).toEqual({ feedback: 'You move the soapbar 1 to the toilet 1.', valid: true, won: true });
  });

  it('heats, cools, cleans and examines object states; slices with a knife; lamps turn on', () => {
    const g = new AlfworldGame(buildScene(HOUSE));
    expect(play(g, ['go to countertop 1', 'take knife 1 from countertop 1', 'slice apple 3 with knife 1', 'move knife 1 to countertop 1'])).toEqual([
      'You arrive at countertop 1. On the countertop 1, you see a apple 3, a egg 2, and a knife 1.',
      'You pick up the knife 1 from the countertop 1.',
      'You sliced the apple 3 with the knife 1.',
      'You move the knife 1 to the countertop 1.',
    ]);
    expect(play(g, ['take egg 2 from countertop 1', 'go to microwave 1', 'heat egg 2 with microwave 1', 'examine egg 2'])).toEqual([
      'You pick up the egg 2 from the countertop 1.',
      'You arrive at microwave 1. The microwave 1 is closed.',
      'You heat the egg 2 using the microwave 1.',
      'This is a hot egg 2.',
    ]);
    expect(play(g, ['go to fridge 1', 'cool egg 2 with fridge 1', 'examine egg 2', 'open fridge 1', 'go to sinkbasin 1', 'clean egg 2 with sinkbasin 1', 'examine egg 2'])).toEqual([
      'You arrive at fridge 1. The fridge 1 is closed.',
      'You cool the egg 2 using the fridge 1.',
      'This is a cold egg 2.',
      'You open the fridge 1. The fridge 1 is open. In it, you see a mug 1.',
      'You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.',
      'You clean the egg 2 using the sinkbasin 1.',
      'This is a cool and clean egg 2.',
    ]);
    expect(play(g, ['go to fridge 1', 'go to microwave 1', 'heat egg 2 with microwave 1', 'examine egg 2'])).toEqual([
      'You arrive at fridge 1. The fridge 1 is open. In it, you see a mug 1.',
      'You arrive at microwave 1. The microwave 1 is closed.',
      'You heat the egg 2 using the microwave 1.',
      'This is a hot and clean egg 2.',
    ]);
    expect(play(g, ['go to desk 1', 'use desklamp 1', 'use desklamp 1', 'go to drawer 1', 'open drawer 1'])).toEqual([
      'You arrive at desk 1. On the desk 1, you see a desklamp 1.',
      'You turn on the desklamp 1.',
      'You turn on the desklamp 1.',
      'You arrive at drawer 1. On the drawer 1, you see nothing.',
      'Nothing happens.',
    ]);
  });

  it('examines as alfred.twl2: sliced variants, and a held receptacle-object always reads "normal" with its contents', () => {
    const g = new AlfworldGame(buildScene(HOUSE));
    play(g, ['go to countertop 1', 'take knife 1 from countertop 1', 'slice apple 3 with knife 1', 'move knife 1 to countertop 1']);
    expect(play(g, ['take apple 3 from countertop 1', 'examine apple 3', 'go to microwave 1', 'heat apple 3 with microwave 1', 'examine apple 3'])).toEqual([
      'You pick up the apple 3 from the countertop 1.',
      'This is a sliced apple 3.',
      'You arrive at microwave 1. The microwave 1 is closed.',
      'You heat the apple 3 using the microwave 1.',
      'This is a hot sliced apple 3.',
    ]);
    expect(play(g, ['go to fridge 1', 'cool apple 3 with fridge 1', 'examine apple 3', 'go to sinkbasin 1', 'clean apple 3 with sinkbasin 1', 'examine apple 3'])).toEqual([
      'You arrive at fridge 1. The fridge 1 is closed.',
      'You cool the apple 3 using the fridge 1.',
      'This is a cool sliced apple 3.',
      'You arrive at sinkbasin 1. On the sinkbasin 1, you see nothing.',
      'You clean the apple 3 using the sinkbasin 1.',
      'This is a cool and clean sliced apple 3.',
    ]);
    play(g, ['move apple 3 to sinkbasin 1', 'go to fridge 1', 'open fridge 1']);
    expect(
      play(g, ['take mug 1 from fridge 1', 'examine mug 1', 'go to microwave 1', 'heat mug 1 with microwave 1', 'examine mug 1', 'go to sinkbasin 1', 'clean mug 1 with sinkbasin 1', 'examine mug 1']),
    ).toEqual([
      'You pick up the mug 1 from the fridge 1.',
      'This is a normal mug 1. In it, you see nothing.',
      'You arrive at microwave 1. The microwave 1 is closed.',
      'You heat the mug 1 using the microwave 1.',
      'This is a normal mug 1. In it, you see nothing.',
      'You arrive at sinkbasin 1. On the sinkbasin 1, you see a apple 3.',
      'You clean the mug 1 using the sinkbasin 1.',
      'This is a normal mug 1. In it, you see nothing.',
    ]);
  });

  it('cleans only with a sink basin: a bathtub basin refuses, and the expert never uses one', () => {
    const bath: SceneSketch = {
      locations: [['bathtubbasin 1'], ['sinkbasin 1'], ['countertop 1'], ['toilet 1']],
      objects: { 'soapbar 1': 'countertop 1', 'cloth 1': 'countertop 1' },
      roomType: 'bathroom',
      goal: { taskType: 'pick_clean_then_place_in_recep', text: 'put a clean soapbar in toilet', obj: 'soapbar', recep: 'toilet' },
    };
    const g = new AlfworldGame(buildScene(bath));
    expect(play(g, ['go to countertop 1', 'take soapbar 1 from countertop 1', 'go to bathtubbasin 1'])).toEqual([
      'You arrive at countertop 1. On the countertop 1, you see a cloth 1, and a soapbar 1.',
      'You pick up the soapbar 1 from the countertop 1.',
      'You arrive at bathtubbasin 1. On the bathtubbasin 1, you see nothing.',
    ]);
    expect(g.admissibleCommands().filter((c) => c.startsWith('clean'))).toEqual([]);
    expect(g.step('clean soapbar 1 with bathtubbasin 1')).toEqual({ feedback: 'Nothing happens.', valid: false, won: false });
    expect(g.objectState('soapbar 1')!.clean).toBe(false);
    // The responder agrees with the engine, and the expert (from here) cleans at the sink basin.
    expect(
      respondTo(
        replayBelief(bakeScene(g.spec), [
          { role: 'user', content: 'You arrive at bathtubbasin 1. On the bathtubbasin 1, you see nothing.' },
          { role: 'user', content: 'You pick up the soapbar 1 from the countertop 1.' },
        ]),
        'clean soapbar 1 with bathtubbasin 1',
      ),
    ).toBe('Nothing happens.');
    const plan = runOracle(g);
    expect(plan).toContain('clean soapbar 1 with sinkbasin 1');
    expect(plan.some((a) => a.includes('bathtubbasin'))).toBe(false);
    expect(g.won).toBe(true);
  });

  it('answers anything not admissible with "Nothing happens." and changes nothing', () => {
    const g = new AlfworldGame(buildScene(HOUSE));
    g.step('go to cabinet 2');
    const before = g.admissibleCommands();
    for (const bad of ['', 'fly', 'Go to toilet 1', 'take soapbar 1 from cabinet 2', 'put soapbar 1 in/on toilet 1', 'go to cabinet 1', 'open cabinet 9', 'toggle desklamp 1', 'go to  toilet 1']) {
      expect(g.step(bad)).toEqual({ feedback: 'Nothing happens.', valid: false, won: false });
    }
    expect(g.admissibleCommands()).toEqual(before);
    // Surrounding whitespace is stripped before the lookup, as PddlEnv does.
    expect(g.step('  open cabinet 2 \n').feedback).toBe('You open the cabinet 2. The cabinet 2 is open. In it, you see a candle 1, a soapbar 1, and a spraybottle 2.');
  });

  it('prints the help text (current grammar only)', () => {
    const g = new AlfworldGame(buildScene(HOUSE));
    const help = g.step('help').feedback;
    expect(help.startsWith('\nAvailable commands:\n  look:                             look around your current location\n')).toBe(true);
    expect(help).toContain('  move (object) to (receptacle):  place an object in or on a receptacle\n');
    expect(new AlfworldGame(buildScene(HOUSE), { grammar: 'classic' }).step('help').feedback).toBe('Nothing happens.');
  });
});

describe('ALFWorld transcripts (classic grammar)', () => {
  it('uses "You arrive at loc N." and "put X in/on Y"', () => {
    const g = new AlfworldGame(buildScene(HOUSE), { grammar: 'classic' });
    expect(play(g, ['go to cabinet 2', 'open cabinet 2', 'take soapbar 1 from cabinet 2', 'go to toilet 1'])).toEqual([
      'You arrive at loc 10. The cabinet 2 is closed.',
      'You open the cabinet 2. The cabinet 2 is open. In it, you see a candle 1, a soapbar 1, and a spraybottle 2.',
      'You pick up the soapbar 1 from the cabinet 2.',
      'You arrive at loc 13. On the toilet 1, you see nothing.',
    ]);
    expect(g.admissibleCommands()).toContain('put soapbar 1 in/on toilet 1');
    expect(g.admissibleCommands()).not.toContain('move soapbar 1 to toilet 1');
    expect(g.step('put soapbar 1 in/on toilet 1')).toEqual({ feedback: 'You put the soapbar 1 in/on the toilet 1.', valid: true, won: false });
  });
});

describe('goal checks', () => {
  const base = { locations: [['countertop 1'], ['cabinet 1'], ['sinkbasin 1'], ['microwave 1'], ['fridge 1'], ['sidetable 1'], ['diningtable 1']] };
  it('pick_and_place_simple wins the moment the object lands in any receptacle of the class', () => {
    const g = new AlfworldGame(
      buildScene({ ...base, objects: { 'apple 1': 'countertop 1' }, goal: { taskType: 'pick_and_place_simple', text: 'put a apple in diningtable', obj: 'apple', recep: 'diningtable' } }),
    );
    play(g, ['go to countertop 1', 'take apple 1 from countertop 1', 'go to diningtable 1']);
    expect(g.won).toBe(false);
    expect(g.step('move apple 1 to diningtable 1').won).toBe(true);
  });
  it('heat/cool need the state at the end, in any order', () => {
    const g = new AlfworldGame(
      buildScene({
        ...base,
        objects: { 'apple 1': 'countertop 1' },
        goal: { taskType: 'pick_cool_then_place_in_recep', text: 'cool some apple and put it in diningtable', obj: 'apple', recep: 'diningtable' },
      }),
    );
    play(g, ['go to countertop 1', 'take apple 1 from countertop 1', 'go to microwave 1', 'heat apple 1 with microwave 1', 'go to diningtable 1', 'move apple 1 to diningtable 1']);
    expect(g.won).toBe(false); // hot, not cool
    play(g, ['take apple 1 from diningtable 1', 'go to fridge 1', 'cool apple 1 with fridge 1', 'go to diningtable 1']);
    expect(g.step('move apple 1 to diningtable 1').won).toBe(true);
  });
  it('pick_two needs two distinct objects in the same receptacle', () => {
    const g = new AlfworldGame(
      buildScene({
        locations: [['countertop 1'], ['sidetable 2'], ['sidetable 1']],
        objects: { 'apple 1': 'countertop 1', 'apple 2': 'countertop 1' },
        goal: { taskType: 'pick_two_obj_and_place', text: 'put two apple in sidetable', obj: 'apple', recep: 'sidetable' },
      }),
    );
    play(g, [
      'go to countertop 1',
      'take apple 1 from countertop 1',
      'go to sidetable 1',
      'move apple 1 to sidetable 1',
      'go to countertop 1',
      'take apple 2 from countertop 1',
      'go to sidetable 2',
      'move apple 2 to sidetable 2',
    ]);
    expect(g.won).toBe(false);
    play(g, ['take apple 2 from sidetable 2', 'go to sidetable 1']);
    expect(g.step('move apple 2 to sidetable 1').won).toBe(true);
  });
  it('look_at_obj_in_light needs the object in hand while a lamp of the class is on, next to the agent', () => {
    const g = new AlfworldGame(
      buildScene({
        roomType: 'bedroom',
        locations: [['desk 1'], ['bed 1']],
        objects: { 'desklamp 1': 'desk 1', 'book 1': 'bed 1' },
        goal: { taskType: 'look_at_obj_in_light', text: 'look at book under the desklamp', obj: 'book', toggle: 'desklamp' },
      }),
    );
    play(g, ['go to desk 1', 'use desklamp 1', 'go to bed 1', 'take book 1 from bed 1']);
    expect(g.won).toBe(false); // lamp on, but not here
    expect(g.step('go to desk 1')).toEqual({ feedback: 'You arrive at desk 1. On the desk 1, you see a desklamp 1.', valid: true, won: true });
  });
});
