// The random choices ScienceWorld makes while building its house, drawn exactly as the real engine
// draws them: one java.util.Random seeded with the variation index, consumed in the order the
// rooms are built (kitchen, living room, bedroom, bathroom, workshop, greenhouse, art studio,
// hallway, outside, foundry), then the shovel's room, then the agent's starting room out of the ten
// rooms sorted by name. Every task of a variation therefore shares the same house.
import { JavaRandom, scalaShuffle } from '../engine/java-random.js';
import type { RoomName } from './layout.js';

/** A picture's three draws: its kind of picture (the shown name), subject and artist. */
export interface PictureDraw {
  name: string;
  subject: string;
  artist: string;
}

export interface BookDraw {
  title: string;
  author: string;
}

export interface HouseDraws {
  pictures: Record<'kitchen' | 'living room' | 'bedroom' | 'bathroom' | 'hallway', PictureDraw>;
  /** The living room's table: a wood table, a steel table (both shown as "table") or a desk. */
  livingRoomTable: 'wood table' | 'steel table' | 'desk';
  /** Book shelves (absent when the coin said no) and the books on them, in drawing order. */
  shelves: Partial<Record<'living room' | 'bedroom', BookDraw[]>>;
  /** The workshop's three light bulb colours and three wire colours. */
  bulbs: string[];
  wires: string[];
  /** The art studio table's mixing container. */
  mixer: 'glass cup' | 'wood bowl' | 'jug';
  shovelRoom: 'greenhouse' | 'outside';
  startRoom: RoomName;
  /** The generator, positioned after the start room (tasks draw on from here). */
  rng: JavaRandom;
}

const PICTURE_TYPES = ['picture', 'drawing', 'painting', 'finger painting'];
const PICTURE_SUBJECTS = ['a cow', 'a chicken', 'a farm', 'a lush green meadow', 'rolling hills', 'a wintery mountain', 'a boat crossing a river', 'the moon', 'abstract shapes', 'two people playing'];
const PICTURE_ARTISTS = ['Alexandra', 'Owen', 'Bob', 'Lily'];
/** The book options, indexed as the real engine draws them (nextInt(10), redrawn when ≥ 6). */
const BOOKS: BookDraw[] = [
  { title: 'Moby Dick', author: 'Herman Melville' },
  { title: 'Frankenstein', author: 'Mary Wollstonecraft Shelley' },
  { title: 'Sherlock Holmes', author: 'Arthur Conan Doyle' },
  { title: 'Pride and Prejudice', author: 'Jane Austen' },
  { title: 'Beowulf', author: 'Beowulf poet' },
  { title: 'The Foundations of the Origin of Species', author: 'Charles Darwin' },
];
const BULB_COLORS = ['red', 'green', 'blue', 'yellow', 'orange', 'violet'];
const WIRE_COLORS = ['red', 'green', 'blue', 'yellow', 'orange', 'black'];
const MIXERS = ['glass cup', 'wood bowl', 'jug'] as const;
const TABLES = ['wood table', 'steel table', 'desk'] as const;
const ROOMS_BY_NAME: RoomName[] = ['art studio', 'bathroom', 'bedroom', 'foundry', 'greenhouse', 'hallway', 'kitchen', 'living room', 'outside', 'workshop'];

function picture(rng: JavaRandom): PictureDraw {
  const name = PICTURE_TYPES[rng.nextInt(PICTURE_TYPES.length)]!;
  const subject = PICTURE_SUBJECTS[rng.nextInt(PICTURE_SUBJECTS.length)]!;
  const artist = PICTURE_ARTISTS[rng.nextInt(PICTURE_ARTISTS.length)]!;
  return { name, subject, artist };
}

/** A coin for whether there is a shelf; then 0–3 books, each redrawn until it names a real book. */
function shelf(rng: JavaRandom): BookDraw[] | undefined {
  if (!rng.nextBoolean()) return undefined;
  const books: BookDraw[] = [];
  for (let n = rng.nextInt(4); n > 0; n--) {
    let i = rng.nextInt(10);
    while (i >= BOOKS.length) i = rng.nextInt(10);
    books.push(BOOKS[i]!);
  }
  return books;
}

export function drawHouse(variation: number): HouseDraws {
  const rng = new JavaRandom(variation);
  const kitchen = picture(rng);
  const livingRoomTable = TABLES[rng.nextInt(TABLES.length)]!;
  const living = picture(rng);
  const livingShelf = shelf(rng);
  const bedroom = picture(rng);
  const bedroomShelf = shelf(rng);
  const bathroom = picture(rng);
  const bulbs = scalaShuffle(rng, BULB_COLORS).slice(0, 3);
  const wires = scalaShuffle(rng, WIRE_COLORS).slice(0, 3);
  const mixer = scalaShuffle(rng, MIXERS)[0]!;
  const hallway = picture(rng);
  const shovelRoom = rng.nextInt(2) === 1 ? 'greenhouse' : 'outside';
  const startRoom = ROOMS_BY_NAME[rng.nextInt(ROOMS_BY_NAME.length)]!;
  const shelves: HouseDraws['shelves'] = {};
  if (livingShelf) shelves['living room'] = livingShelf;
  if (bedroomShelf) shelves.bedroom = bedroomShelf;
  return {
    pictures: { kitchen, 'living room': living, bedroom, bathroom, hallway },
    livingRoomTable,
    shelves,
    bulbs,
    wires,
    mixer,
    shovelRoom,
    startRoom,
    rng,
  };
}
