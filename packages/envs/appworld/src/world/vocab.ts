// Vocabulary of the seeded world generator, as data. The generator never names a specific value.

export const FIRST_NAMES = [
  'Adam', 'Alice', 'Amir', 'Anita', 'Ben', 'Bianca', 'Carlos', 'Chloe', 'Daniel', 'Dana', 'Elena', 'Eric', 'Fatima', 'Felix',
  'Grace', 'Gavin', 'Hannah', 'Hugo', 'Irene', 'Ivan', 'Jasmine', 'Jonah', 'Kara', 'Kevin', 'Laura', 'Leo', 'Maya', 'Marcus',
  'Nadia', 'Nathan', 'Olivia', 'Omar', 'Paula', 'Peter', 'Quinn', 'Rachel', 'Ravi', 'Sara', 'Simon', 'Tara', 'Tom', 'Uma',
  'Victor', 'Vera', 'Wendy', 'Wes', 'Xenia', 'Yusuf', 'Yara', 'Zoe', 'Brian', 'Cynthia', 'Derek', 'Erin', 'Frank', 'Gloria',
] as const;

export const LAST_NAMES = [
  'Anderson', 'Brooks', 'Castillo', 'Diaz', 'Edwards', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jensen', 'Khan', 'Lopez',
  'Miller', 'Nguyen', 'Okafor', 'Patel', 'Quintero', 'Ramirez', 'Smith', 'Tanaka', 'Usman', 'Valdez', 'Walker', 'Xu',
  'Young', 'Zimmerman', 'Bennett', 'Chen', 'Dubois', 'Evans',
] as const;

export const CITIES: readonly { city: string; state: string; zip: number }[] = [
  { city: 'Seattle', state: 'Washington', zip: 98101 }, { city: 'Austin', state: 'Texas', zip: 73301 },
  { city: 'Denver', state: 'Colorado', zip: 80202 }, { city: 'Boston', state: 'Massachusetts', zip: 2108 },
  { city: 'Portland', state: 'Oregon', zip: 97201 }, { city: 'Chicago', state: 'Illinois', zip: 60601 },
];

export const STREETS = ['Maple Ave', 'Oak St', 'Pine Rd', 'Cedar Ln', 'Elm St', 'Birch Blvd', 'Lake Dr', 'Hill Rd'] as const;

export const RELATIONSHIPS = ['friend', 'coworker', 'family', 'roommate', 'sibling', 'manager', 'neighbor'] as const;

export const GENRES = ['pop', 'rock', 'jazz', 'hip-hop', 'classical', 'electronic', 'country', 'indie'] as const;

export const TITLE_ADJECTIVES = [
  'Golden', 'Silent', 'Electric', 'Midnight', 'Broken', 'Endless', 'Velvet', 'Neon', 'Hidden', 'Falling', 'Crimson', 'Wild',
  'Lonely', 'Bright', 'Frozen', 'Restless', 'Distant', 'Sweet', 'Paper', 'Burning',
] as const;
export const TITLE_NOUNS = [
  'Dreams', 'Highway', 'Heart', 'Skyline', 'River', 'Echoes', 'Summer', 'Shadows', 'Lights', 'Ocean', 'Letters', 'Garden',
  'Thunder', 'Mirrors', 'Horizon', 'Rain', 'Stars', 'Waves', 'Roads', 'Fire',
] as const;
export const ARTIST_WORDS = ['The', 'Band', 'Collective', 'Project', 'Trio', 'Kids', 'Society', 'Parade'] as const;

export const PLAYLIST_THEMES = [
  'Workout Mix', 'Road Trip', 'Chill Vibes', 'Focus Flow', 'Party Starters', 'Sunday Morning', 'Late Night Drive',
  'Throwbacks', 'Study Session', 'Rainy Day', 'Dinner Jazz', 'Summer Hits',
] as const;

export const TX_DESCRIPTIONS = [
  'Dinner', 'Movie tickets', 'Groceries', 'Rent share', 'Concert', 'Coffee', 'Gas money', 'Birthday gift', 'Utilities',
  'Taxi', 'Lunch', 'Book club', 'Gym fees', 'Vacation house', 'Pizza night',
] as const;

export const MESSAGES = [
  'Are we still on for tonight?', 'Running 10 minutes late.', 'Thanks for yesterday!', 'Call me when you can.',
  'Did you see the game?', 'Happy birthday!', 'Can you send me the notes?', 'See you at the meeting.',
  'Lunch tomorrow?', 'Got the tickets!',
] as const;

export const NOTE_TOPICS: readonly { title: string; tags: readonly string[]; lines: readonly string[] }[] = [
  { title: 'Grocery List', tags: ['shopping'], lines: ['milk', 'eggs', 'spinach', 'rice', 'apples', 'coffee beans'] },
  { title: 'Book Recommendations', tags: ['reading', 'personal'], lines: ['The Overstory', 'Project Hail Mary', 'Educated', 'Circe'] },
  { title: 'Workout Plan', tags: ['health'], lines: ['Mon: run 5k', 'Wed: weights', 'Fri: swim', 'Sun: yoga'] },
  { title: 'Meeting Notes', tags: ['work'], lines: ['ship v2 by June', 'hire one designer', 'review budget'] },
  { title: 'Travel Ideas', tags: ['travel', 'personal'], lines: ['Lisbon', 'Kyoto', 'Banff', 'Cape Town'] },
  { title: 'Recipes To Try', tags: ['cooking'], lines: ['shakshuka', 'pad thai', 'lentil soup', 'banana bread'] },
  { title: 'Gift Ideas', tags: ['shopping', 'personal'], lines: ['headphones', 'cookbook', 'plant', 'board game'] },
  { title: 'Project Tasks', tags: ['work'], lines: ['write tests', 'update docs', 'fix login bug'] },
  { title: 'Movies To Watch', tags: ['personal'], lines: ['Arrival', 'Parasite', 'Dune', 'Amelie'] },
  { title: 'Habit Tracker', tags: ['health', 'personal'], lines: ['water 2l', 'sleep by 11', 'read 20 pages'] },
];

export const DIRECTORIES = ['documents', 'documents/work', 'documents/personal', 'photos', 'music', 'downloads', 'bills'] as const;

export const FILE_STEMS: Readonly<Record<string, readonly string[]>> = {
  'documents': ['resume', 'cover_letter', 'tax_return', 'lease'],
  'documents/work': ['report', 'meeting_minutes', 'budget', 'roadmap', 'invoice'],
  'documents/personal': ['journal', 'passport_scan', 'recipes', 'letter'],
  photos: ['vacation', 'birthday', 'hike', 'wedding', 'graduation'],
  music: ['demo', 'mixtape', 'practice'],
  downloads: ['installer', 'ebook', 'invoice', 'manual', 'podcast'],
  bills: ['electricity', 'internet', 'water', 'phone'],
};

export const FILE_EXTENSIONS: Readonly<Record<string, string>> = {
  'documents': 'txt', 'documents/work': 'txt', 'documents/personal': 'txt', photos: 'jpg', music: 'mp3', downloads: 'pdf', bills: 'txt',
};
