// Behaviours of ScienceWorld 1.1.x (the release the paper's recordings come from) that the paper's
// 37 transcripts do not show, checked against the texts its Scala source builds. Each case names the
// source function it follows (simulator/src/main/scala/scienceworld/…, tag 1.1.3).
import { describe, expect, it } from 'vitest';
import { loadTask } from '../world/tasks/setup.js';
import { goldNames } from '../golden/gold-referent.js';

function play(task: string, variation: number, actions: string[], stepLimit = 100) {
  const loaded = loadTask(task, variation, 'easy', stepLimit);
  return { ...loaded, out: actions.map((a) => loaded.game.step(a)) };
}

describe('names the real parser resolves (EnvObject.getReferentsWithContainers, InputParser.matchObj)', () => {
  it('a generic word and its container: "substance in cup" (Substance.getReferents, container forms)', () => {
    // measure-melting-point-known-substance v1: lead in a plastic cup on the kitchen floor.
    const { out } = play('measure-melting-point-known-substance', 1, ['teleport to kitchen', 'focus on substance in cup']);
    expect(out[1]!.observation).toBe('You focus on the lead.');
  });
  it('a terminal by its component\'s generic word: "cathode in buzzer" (Terminal.getReferents, ElectricBuzzer.getReferents)', () => {
    // power-component v16: the electric buzzer, green wire among the workshop's wires.
    const { out } = play('power-component', 16, ['teleport to workshop', 'connect green wire terminal 2 to cathode in buzzer']);
    expect(out[1]!.observation).toBe('terminal 2 on green wire is now connected to cathode on electric buzzer');
  });
  it('"unknown substance" names the unknown substance, and put down moves it to the room wherever it was (ActionPutDownObjectIntoInventory.remap, ActionMoveObject.runAction)', () => {
    const { out } = play('test-conductivity-of-unknown-substances', 0, ['teleport to workshop', 'drop unknown substance', 'pick up unknown substance', 'drop unknown substance']);
    expect(out.slice(1).map((r) => r.observation)).toEqual([
      'You move the unknown substance B to the workshop.',
      'You move the unknown substance B to the inventory.',
      'You move the unknown substance B to the workshop.',
    ]);
  });
  it('a cup by what it holds, with every content joined by "and" or "nothing" (Container.mkContentReferences)', () => {
    const { out } = play('measure-melting-point-known-substance', 1, ['teleport to kitchen', 'look at cup containing lead', 'look at glass cup containing nothing']);
    expect(out[1]!.observation).toBe('a plastic cup (containing a substance called lead)');
    expect(out[2]!.observation).toBe('a glass cup (containing nothing)');
  });
  it('pouring a thing into itself parses and is refused (ActionPourObject.runAction)', () => {
    const { out } = play('chemistry-mix', 0, ['teleport to kitchen', 'open cupboard', 'pour metal pot into metal pot']);
    expect(out[2]!.observation).toBe("You can't move something into itself.");
  });
});

describe('the names the real gold paths use (their texts built as the task files build them)', () => {
  it('identify-life-stages-1: "focus on <stage> <animal> in <container>" (TaskIdentifyLifeStages1.mkActionSequenceWaitForLivingThingInStage, Animal.getReferents)', () => {
    // v9: the giant tortoise, outside.
    const { out } = play('identify-life-stages-1', 9, ['teleport to outside', 'focus on egg giant tortoise in outside']);
    expect(out[1]!.observation).toBe('You focus on the giant tortoise egg.');
    expect(out[1]!.score).toBeGreaterThan(0);
  });
  it('identify-life-stages-2: "focus on <plant> in the <stage> stage in <pot>", seeds included (FruitingTree.getReferents)', () => {
    const { out } = play('identify-life-stages-2', 0, [
      'teleport to outside',
      'focus on apple seed in the seed stage in self watering flower pot 4',
      'focus on apple tree in the seedling stage in self watering flower pot 6',
    ]);
    expect(out.slice(1).map((r) => r.observation)).toEqual(['You focus on the apple seed.', 'You focus on the apple tree.']);
    expect(out[2]!.score).toBeGreaterThan(out[1]!.score);
  });
  it('the first unique referent of a young mammal is "baby baby <name>" (PathFinder.getObjUniqueReferent), and it parses', () => {
    const { game } = loadTask('lifespan-longest-lived', 0, 'easy');
    game.step('teleport to outside');
    const bear = game.w.objs.find((o) => o.species === 'brown bear')!;
    const name = goldNames(game.w).get(bear.id)!;
    expect(name).toEqual({ referent: 'baby baby brown bear', shared: false });
    expect(game.step(`focus on ${name.referent}`).observation).toBe('You focus on the baby brown bear.');
  });
  it('find-non-living-thing: furniture is a movable non-living thing (GoalFocusOnNonlivingThing)', () => {
    const { out } = play('find-non-living-thing', 0, ['teleport to kitchen', 'focus on chair', 'move chair to red box']);
    expect(out[2]!).toMatchObject({ observation: 'You move the chair to the red box.', score: 100, done: true });
  });
});

describe('object properties (Container.scala, Generator.scala)', () => {
  it('the glass jar is created closed: its salt is out of reach until it is opened (GlassJar: IsContainer)', () => {
    const { out } = play('chemistry-mix', 0, ['teleport to kitchen', 'pick up sodium chloride', 'open glass jar', 'pick up sodium chloride', 'close glass jar']);
    expect(out.slice(1).map((r) => r.observation)).toEqual([
      'No known action matches that input.',
      'The glass jar is now open.',
      'You move the sodium chloride to the inventory.',
      'The glass jar is now closed.',
    ]);
  });
  it('gas and nuclear generators are activatable and created off; a solar panel works only outside (NuclearGenerator, RenewableOutdoorGenerator.tick)', () => {
    // renewable-vs-nonrenewable v1: red light bulb, solar panel and nuclear generator in the workshop.
    const { out, game } = play('power-component-renewable-vs-nonrenewable-energy', 1, [
      'teleport to workshop',
      'look at nuclear generator',
      'activate nuclear generator',
      'activate nuclear generator',
      'activate solar panel',
    ]);
    expect(out.slice(1).map((r) => r.observation)).toEqual([
      'a nuclear generator, which is off. its anode is connected to: nothing. its cathode is connected to: nothing.',
      'The nuclear generator is now activated.',
      'The nuclear generator is already activated.',
      'The solar panel is not something that can be activated.',
    ]);
    const panel = game.w.objs.find((o) => o.kind === 'solar panel')!;
    expect(panel.isOn).toBe(false);
    game.step('pick up solar panel');
    game.step('teleport to outside');
    game.step('drop solar panel');
    expect(game.step('look at solar panel').observation).toMatch(/^a solar panel, which is on\. /);
  });
  it("a load lights only with its cathode towards the source's anode (PolarizedElectricalComponent.tick: anode to ground, cathode to voltage)", () => {
    const { game } = loadTask('power-component', 0, 'easy');
    const w = game.w;
    const bulb = w.objs.find((o) => o.tags.includes('target'))!;
    const [a, b] = w.objs.filter((o) => o.kind === 'wire').map((o) => w.name(o));
    game.step('teleport to workshop');
    for (const cmd of [
      `connect battery anode to ${a} terminal 1`,
      `connect ${a} terminal 2 to ${w.name(bulb)} anode`,
      `connect ${w.name(bulb)} cathode to ${b} terminal 1`,
      `connect ${b} terminal 2 to battery cathode`,
    ])
      game.step(cmd);
    game.step('wait1');
    expect(bulb.isOn).toBe(false);
    game.step(`disconnect ${w.name(bulb)}`);
    for (const cmd of [`connect ${a} terminal 2 to ${w.name(bulb)} cathode`, `connect ${w.name(bulb)} anode to ${b} terminal 1`]) game.step(cmd);
    game.step('wait1');
    expect(bulb.isOn).toBe(true);
  });
});

describe('the stopwatch (StopWatch.tick: the running count restarts from 0 while off, the time shown is its last value)', () => {
  it('a second run starts again from 1', () => {
    const { out } = play('inclined-plane-determine-angle', 0, [
      'teleport to workshop',
      'pick up stopwatch',
      'activate stopwatch',
      'wait1',
      'deactivate stopwatch',
      'look at stopwatch',
      'activate stopwatch',
      'look at stopwatch',
    ]);
    // activate: 1 tick; wait1: 2 more; deactivate: the tick it is off resets the run, shows 3.
    expect(out[5]!.observation).toBe('a stopwatch, which is deactivated. The time reads 3 ticks.');
    expect(out[7]!.observation).toBe('a stopwatch, which is activated. The time reads 1 ticks.');
  });
});

describe('moving things (ActionMoveObject: no check that the thing is already there)', () => {
  it('moving a thing where it already is moves it again', () => {
    const { out } = play('chemistry-mix', 0, ['teleport to kitchen', 'open cupboard', 'move metal pot to table', 'move metal pot to table']);
    expect(out[2]!.observation).toBe('You move the metal pot to the table.');
    expect(out[3]!.observation).toBe('You move the metal pot to the table.');
  });
  it('picking up a carried thing takes it out of its container into the inventory', () => {
    const { out, game } = play('chemistry-mix', 0, ['teleport to kitchen', 'open cupboard', 'pick up metal pot', 'pick up ceramic cup', 'move ceramic cup to metal pot', 'pick up ceramic cup']);
    expect(out.slice(4).map((r) => r.observation)).toEqual(['You move the ceramic cup to the metal pot.', 'You move the ceramic cup to the inventory.']);
    const cup = game.w.objs.find((o) => o.kind === 'ceramic cup')!;
    expect(cup.parent).toBe(game.w.agent);
  });
  it('furniture is movable, appliances are not ("moveable", ActionMoveObject.isValidAction)', () => {
    const { out } = play('boil', 0, ['teleport to kitchen', 'pick up chair', 'pick up stove']);
    expect(out[1]!.observation).toBe('You move the chair to the inventory.');
    expect(out[2]!.observation).toBe('The stove is not moveable.');
  });
  it('pouring: a solid is refused with its trailing space trimmed, an empty container pours "its contents" (ActionPourObject)', () => {
    const { out } = play('chemistry-mix', 0, [
      'teleport to kitchen',
      'open cupboard',
      'pick up metal pot',
      'pick up tin cup',
      'pour tin cup into metal pot',
      'move thermometer to metal pot',
      'pour thermometer into tin cup',
    ]);
    expect(out[4]!.observation).toBe('You pour the contents of the tin cup into the metal pot.');
    expect(out[6]!.observation).toBe("I'm not sure how to pour a solid.");
  });
});

describe('documents (Document.scala, ActionRead)', () => {
  it("the recipe lists the ingredients in the task's order, after a line break (Recipe.mkRecipe, Recipe.readDocument)", () => {
    const { out } = play('chemistry-mix', 24, ['teleport to kitchen', 'read recipe', 'look at recipe']);
    expect(out[1]!.observation).toBe('The recipe reads:\nTo make sugar water, you need to mix sugar, water.');
    expect(out[2]!.observation).toBe('A recipe titled instructions to make sugar water');
  });
  it('a blank paper, and things that are not documents (Paper.getDescription, Paper.readDocument, ActionRead.isValidAction)', () => {
    const { out } = play('chemistry-mix', 27, ['teleport to kitchen', 'look at paper', 'read paper', 'read thermometer']);
    expect(out.slice(1).map((r) => r.observation)).toEqual(['A blank paper', 'The paper does not have any text on it.', "It's not clear how to read that."]);
  });
});

describe('mixing (Chemistry.mixContainer)', () => {
  it('paper and red paint make a red paper, listed as its class describes it', () => {
    const { game } = loadTask('chemistry-mix', 27, 'easy');
    const w = game.w;
    const pot = w.objs.find((o) => o.kind === 'metal pot')!;
    const paper = w.objs.find((o) => o.kind === 'paper')!;
    const red = w.objs.find((o) => w.name(o) === 'red paint')!;
    w.moveTo(paper.id, pot.id);
    w.moveTo(red.id, pot.id);
    game.step('teleport to kitchen');
    game.step('open cupboard');
    expect(game.step('examine metal pot').observation).toBe('a metal pot (containing A blank paper, red paint)');
    expect(game.step('mix metal pot').observation).toBe('Paper and blue paint mix to produce red paper.');
    expect(game.step('look at metal pot').observation).toBe('a metal pot (containing A red paper)');
  });
  it('two paints no recipe takes make brown paint; three things that are not a recipe make nothing', () => {
    const { game } = loadTask('chemistry-mix-paint-tertiary-color', 0, 'easy');
    const w = game.w;
    game.step('teleport to art studio');
    const cup = w.objs.find((o) => o.kind === 'wood cup' && w.roomOf(o.id) === w.room('art studio'))!;
    const into = (material: string, name: string) => w.create({ kind: 'substance', material, name }, cup.id);
    for (const c of [...cup.contents]) w.remove(c);
    into('paint', 'orange paint');
    into('paint', 'blue paint');
    expect(game.step(`mix ${w.name(cup)} containing blue paint and orange paint`).observation).toBe('The paints mix to produce brown paint.');
    into('water', 'water');
    into('paint', 'red paint');
    expect(game.step(`mix ${w.name(cup)} containing brown paint and red paint and water`).observation).toBe(`Mixing the contents of the ${w.name(cup)} does not appear to produce anything new.`);
  });
});

describe("the step limit counts the world's ticks (AgentInterface.curIter, scienceworld.py step: moves > envStepLimit)", () => {
  it('wait uses eleven of them; look around, inventory and parse failures none', () => {
    const { out } = play('boil', 0, ['look around', 'inventory', 'xyzzy', ...Array.from({ length: 9 }, () => 'wait'), 'wait1']);
    expect(out.slice(0, 3).map((r) => r.moves)).toEqual([0, 0, 0]);
    expect(out[11]!.moves).toBe(99);
    expect(out[11]!.done).toBe(false);
    expect(out[12]!.moves).toBe(101);
    expect(out[12]!.done).toBe(true);
  });
});
