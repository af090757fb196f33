// Every sentence the engine prints, keyed by message id (text kept apart from logic). Strings marked
// (ref) are verbatim from the reference transcripts; the others follow their style (unconfirmed).

/** The names ScienceWorld writes with "an"; every other object gets "a" ("a oven", "a ultra low temperature freezer"). */
const AN_NAMES = new Set(['axe', 'orange', 'avocado', 'grapefruit', 'inclined plane']);
export const article = (name: string): string => (AN_NAMES.has(name) ? `an ${name}` : `a ${name}`);

/** Fruit trees are named "X tree" once grown, as ScienceWorld names them; other plants "X plant". */
const TREE_SPECIES = new Set(['apple', 'apricot', 'avocado', 'banana', 'cherry', 'grapefruit', 'lemon', 'orange', 'peach', 'pear']);
export const grownPlantName = (species: string): string => (TREE_SPECIES.has(species) ? `${species} tree` : `${species} plant`);

export const TEXT = {
  roomHeader: (room: string) => (room === 'outside' ? `This outside location is called the ${room}. Here you see: ` : `This room is called the ${room}. In it, you see: `), // (ref)
  alsoSee: 'You also see:', // (ref)
  door: (to: string, open: boolean) => `A door to the ${to} (that is ${open ? 'open' : 'closed'})`, // (ref)
  inventory: 'In your inventory, you see:', // (ref)
  taskDescription: (desc: string) => `Task Description:\n${desc}`, // (ref)
  moveRoom: (room: string) => `You move to the ${room}.`, // (ref)
  teleport: (room: string) => `You teleport to the ${room}.`, // (ref)
  noPath: "It's not clear how to get there from here.", // (ref)
  doorClosed: (room: string) => `The door to the ${room} is closed.`,
  nowOpen: (what: string) => `The ${what} is now open.`, // (ref: "The door is now open.")
  alreadyOpen: (what: string) => `The ${what} is already open.`, // (ref)
  nowClosed: (what: string) => `The ${what} is now closed.`,
  alreadyClosed: (what: string) => `The ${what} is already closed.`,
  notOpenable: (what: string) => `The ${what} is not openable.`, // (ref)
  notClosable: (what: string) => `The ${what} is not closeable.`, // (ref)
  moveTo: (what: string, to: string) => `You move the ${what} to the ${to}.`, // (ref)
  notOpenMove: (c: string) => `That can't be moved there, because the ${c} isn't open.`, // (ref)
  liquid: "You can't pick up a liquid directly.  Try pouring it from one container to another, or dunking empty containers into containers filled with the liquid.", // (ref)
  gas: "You can't pick up a gas directly.", // (ref: ActionMoveObject.isValidAction)
  notMovable: (what: string) => `The ${what} is not moveable.`, // (ref: ActionMoveObject.isValidAction)
  holderNotMovable: (holder: string, what: string) => `The ${holder} the ${what} is in is not movable.`, // (ref)
  intoItself: (verb: 'move' | 'dunk') => `You can't ${verb} something into itself.`, // (ref)
  cantBeMovedThere: "That can't be moved there.", // (ref)
  cantMoveInto: (what: string, to: string) => `You can't move the ${what} into the ${to}.`,
  pourInto: (from: string, to: string) => `You pour the contents of the ${from} into the ${to}.`, // (ref)
  pourSubstance: (what: string, to: string) => `You pour the ${what} into the ${to}.`, // (ref: ActionPourObject.runAction)
  notInContainer: (what: string) => `The ${what} can't be poured out because it doesn't appear to be in a container.`, // (ref: ActionPourObject.isValidAction)
  cantPourClosed: (what: string) => `The ${what} can't be poured out, because it's not open.`, // (ref: ActionPourObject.isValidAction)
  pourSolid: "I'm not sure how to pour a solid. ", // (ref: ActionPourObject.isValidAction)
  pourGas: "You can't pour a gas directly. ", // (ref: ActionPourObject.isValidAction)
  pourNotContainer: "That can't be moved there, because it's not a container.", // (ref: ActionPourObject.isValidAction)
  activated: (what: string) => `The ${what} is now activated.`, // (ref)
  broken: (what: string) => `The ${what} appears broken, and can't be activated or deactivated.`, // (ref: ActionActivate)
  deactivated: (what: string) => `The ${what} is now deactivated.`, // (ref)
  alreadyActivated: (what: string) => `The ${what} is already activated.`, // (ref)
  alreadyDeactivated: (what: string) => `The ${what} is already deactivated.`,
  notActivatable: (what: string) => `The ${what} is not something that can be activated.`, // (ref)
  notDeactivatable: (what: string) => `The ${what} is not something that can be deactivated.`,
  focus: (what: string) => `You focus on the ${what}.`, // (ref)
  waitN: (n: number) => `You decide to wait for ${n} iterations.`, // (ref)
  wait1: 'You decide to wait for 1 iterations.', // (ref: the real engine's plural, recorded)
  thermometer: (t: string) => `the thermometer measures a temperature of ${t} degrees celsius`, // (ref)
  noTemperature: "That thing doesn't appear to have a temperature that the thermometer can read.", // (ref: a thing with no material)
  dig: 'You dig a hole in the ground, and place the soil nearby.', // (ref)
  cantUseTogether: "I'm not sure how to use those two things together.", // (ref: ActionUseDevice, a device that fails on the thing)
  notAThermometer: (what: string) => `I'm not sure how to use the ${what}.`, // (ref)
  eat: (what: string) => `The ${what} was delicious.`, // (ref)
  notEdible: (what: string) => `The ${what} is not edible.`,
  notSeeInside: (what: string) => `The ${what} isn't open, so you can't see inside.`, // (ref)
  lookIn: (what: string, list: string) => `Inside the ${what} is: \n${list}`,
  connected: (ta: string, a: string, tb: string, b: string) => `${ta} on ${a} is now connected to ${tb} on ${b}`, // (ref)
  namePolarizedTerminal: 'Connections must specify specific points of contact on polarized electrical components (e.g. anode, cathode)', // (ref)
  nameUnpolarizedTerminal: 'Connections must specify specific points of contact on unpolarized electrical components (e.g. terminal 1, terminal 2)', // (ref)
  notConnectable: (what: string) => `It's not clear how to connect something to ${what}`, // (ref: ActionConnectElectrical)
  alreadyConnected: (what: string) => `${what} is already connected, and must be disconnected before it can be connected to something else`, // (ref: ActionConnectElectrical)
  terminalAlreadyConnected: (t: string, what: string) => `${t} on ${what} is already connected, and must be disconnected before it can be connected to something else`, // (ref: ActionConnectElectrical)
  connectToItself: "Something can't be connected to itself.", // (ref: ActionConnectElectrical)
  disconnected: (what: string) => `${what} has been disconnected`, // (ref: ActionDisconnectElectrical)
  disconnectWholeObject: (what: string) => `You must disconnect entire objects (such as ${what}) instead of just single terminals`, // (ref: ActionDisconnectElectrical)
  disconnecting: (what: string) => `(disconnecting ${what})`, // (ref: ActionMoveObject)
  mixEmpty: 'That container is empty, so there are no items to mix.', // (ref)
  mixOne: (what: string) => `There is only one thing (${what})`, // (ref)
  mixNothing: (what: string) => `Mixing the contents of the ${what} does not appear to produce anything new.`, // (ref)
  notReadable: "It's not clear how to read that.", // (ref: ActionRead.isValidAction)
  blankPaper: 'The paper does not have any text on it.', // (ref: Paper.readDocument, ColoredPaper.readDocument)
  readRecipe: (text: string) => `The recipe reads:\n${text}`, // (ref: Recipe.readDocument)
  readText: (what: string, text: string) => `The ${what} reads: ${text}`,
  recipeShown: (product: string) => `A recipe titled instructions to make ${product}`, // (ref)
  recipe: (product: string, inputs: readonly string[]) => `To make ${product}, you need to mix ${inputs.join(', ')}.`, // (ref: Recipe.mkRecipe, the task's order)
  flush: (what: string) => `The ${what} flushes.`,
  notFlushable: (what: string) => `The ${what} can't be flushed.`,
  dunk: (what: string, into: string, liquids: readonly string[]) => `You dunk the ${what} in the ${into}, moving the liquids (${liquids.join(', ')}) to the ${what}.`, // (ref: ActionDunkObject.runAction)
  dunkNotOpen: (what: string) => `The ${what} is not open.`, // (ref: ActionDunkObject.isValidAction)
  dunkNotContainer: (what: string) => `The ${what} is not a container.`, // (ref: ActionDunkObject.isValidAction)
  dunkNoLiquid: (what: string) => `The ${what} does not contain any liquids to dunk into.`, // (ref: ActionDunkObject.isValidAction)
  resetTask: 'You reset the goal progress and focus.', // (ref)
  unknownAction: 'No known action matches that input.', // (ref)
  empty: "Unknown action.  Type 'help' for a list of actions, and 'objects' for a list of possible object referents. ", // (ref)
  ambiguous: 'Ambiguous request: Please enter the number for the action you intended (or blank to cancel):', // (ref)
  possibleActions: 'Possible actions: ', // (ref)
  possibleObjects: 'Possible object references: ', // (ref)
  stageNames: ['seed', 'seedling', 'adult', 'reproducing', 'dead'] as const,
} as const;
