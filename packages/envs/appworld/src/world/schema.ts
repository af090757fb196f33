// The database of one AppWorld world: every app's tables in one SQLite file, so that one copy is
// one episode and one diff covers every app (AppWorld evaluates across apps the same way).
// Every table has an integer `id` primary key: the evaluator diffs rows by it.
import { AMAZON_SCHEMA_SQL, AMAZON_TABLES } from './amazon.js';
import { GMAIL_SCHEMA_SQL, GMAIL_TABLES } from './gmail.js';
import { SPLITWISE_SQL, SPLITWISE_TABLES } from './splitwise.js';
import { TODOIST_SQL, TODOIST_TABLES } from './todoist.js';

export const SCHEMA_SQL = `
CREATE TABLE users (id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE, phone_number TEXT NOT NULL UNIQUE, birthday TEXT NOT NULL, sex TEXT NOT NULL);
CREATE TABLE accounts (id INTEGER PRIMARY KEY, app TEXT NOT NULL, user_id INTEGER NOT NULL, password TEXT NOT NULL,
  verified INTEGER NOT NULL DEFAULT 1, created_at TEXT NOT NULL, UNIQUE (app, user_id));
CREATE TABLE addresses (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, name TEXT NOT NULL, street_address TEXT NOT NULL,
  city TEXT NOT NULL, state TEXT NOT NULL, country TEXT NOT NULL, zip_code INTEGER NOT NULL);
CREATE TABLE payment_cards (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, owner_name TEXT NOT NULL, card_name TEXT NOT NULL,
  card_number TEXT NOT NULL, expiry_year INTEGER NOT NULL, expiry_month INTEGER NOT NULL, cvv_number TEXT NOT NULL);
CREATE TABLE supervisor_tasks (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, instruction TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active', answer TEXT);

CREATE TABLE artists (id INTEGER PRIMARY KEY, name TEXT NOT NULL, genre TEXT NOT NULL, follower_count INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist_id INTEGER NOT NULL, genre TEXT NOT NULL,
  release_date TEXT NOT NULL, rating REAL NOT NULL, like_count INTEGER NOT NULL);
CREATE TABLE songs (id INTEGER PRIMARY KEY, title TEXT NOT NULL, album_id INTEGER NOT NULL, artist_id INTEGER NOT NULL,
  genre TEXT NOT NULL, duration INTEGER NOT NULL, release_date TEXT NOT NULL, play_count INTEGER NOT NULL,
  rating REAL NOT NULL, like_count INTEGER NOT NULL);
CREATE TABLE playlists (id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, title TEXT NOT NULL, is_public INTEGER NOT NULL,
  rating REAL NOT NULL, like_count INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE playlist_songs (id INTEGER PRIMARY KEY, playlist_id INTEGER NOT NULL, song_id INTEGER NOT NULL, added_at TEXT NOT NULL,
  UNIQUE (playlist_id, song_id));
CREATE TABLE song_library (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, song_id INTEGER NOT NULL, added_at TEXT NOT NULL, UNIQUE (user_id, song_id));
CREATE TABLE album_library (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, album_id INTEGER NOT NULL, added_at TEXT NOT NULL, UNIQUE (user_id, album_id));
CREATE TABLE liked_songs (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, song_id INTEGER NOT NULL, created_at TEXT NOT NULL, UNIQUE (user_id, song_id));
CREATE TABLE spotify_payment_cards (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, card_name TEXT NOT NULL, owner_name TEXT NOT NULL,
  card_number TEXT NOT NULL, expiry_year INTEGER NOT NULL, expiry_month INTEGER NOT NULL, cvv_number TEXT NOT NULL);
CREATE TABLE spotify_premium_subscriptions (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, payment_card_id INTEGER NOT NULL,
  payment_card_digits TEXT NOT NULL, start_date TEXT NOT NULL, end_date TEXT NOT NULL, paid_amount REAL NOT NULL);
CREATE TABLE spotify_queue (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, position INTEGER NOT NULL, song_id INTEGER NOT NULL, UNIQUE (user_id, position));
CREATE TABLE spotify_player (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL UNIQUE, current_position INTEGER NOT NULL, is_playing INTEGER NOT NULL,
  is_looping INTEGER NOT NULL, played_seconds INTEGER NOT NULL, volume INTEGER NOT NULL);
CREATE TABLE song_reviews (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, song_id INTEGER NOT NULL, rating INTEGER NOT NULL, title TEXT NOT NULL,
  text TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (user_id, song_id));
CREATE TABLE album_reviews (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, album_id INTEGER NOT NULL, rating INTEGER NOT NULL, title TEXT NOT NULL,
  text TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (user_id, album_id));
CREATE TABLE playlist_reviews (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, playlist_id INTEGER NOT NULL, rating INTEGER NOT NULL, title TEXT NOT NULL,
  text TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (user_id, playlist_id));
CREATE TABLE liked_albums (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, album_id INTEGER NOT NULL, created_at TEXT NOT NULL, UNIQUE (user_id, album_id));
CREATE TABLE liked_playlists (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, playlist_id INTEGER NOT NULL, created_at TEXT NOT NULL, UNIQUE (user_id, playlist_id));
CREATE TABLE following_artists (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, artist_id INTEGER NOT NULL, created_at TEXT NOT NULL, UNIQUE (user_id, artist_id));
CREATE TABLE downloaded_songs (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, song_id INTEGER NOT NULL, created_at TEXT NOT NULL, UNIQUE (user_id, song_id));

CREATE TABLE venmo_balances (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL UNIQUE, balance REAL NOT NULL);
CREATE TABLE venmo_friends (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, friend_id INTEGER NOT NULL, created_at TEXT NOT NULL, UNIQUE (user_id, friend_id));
CREATE TABLE venmo_payment_cards (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, card_name TEXT NOT NULL, owner_name TEXT NOT NULL,
  card_number TEXT NOT NULL, expiry_year INTEGER NOT NULL, expiry_month INTEGER NOT NULL, cvv_number TEXT NOT NULL);
CREATE TABLE venmo_transactions (id INTEGER PRIMARY KEY, sender_id INTEGER NOT NULL, receiver_id INTEGER NOT NULL, amount REAL NOT NULL,
  description TEXT NOT NULL, private INTEGER NOT NULL, payment_card_id INTEGER, like_count INTEGER NOT NULL, created_at TEXT NOT NULL,
  updated_at TEXT);
CREATE TABLE venmo_transaction_likes (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, transaction_id INTEGER NOT NULL, created_at TEXT NOT NULL,
  UNIQUE (user_id, transaction_id));
CREATE TABLE venmo_comments (id INTEGER PRIMARY KEY, transaction_id INTEGER NOT NULL, user_id INTEGER NOT NULL, comment TEXT NOT NULL,
  like_count INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE venmo_comment_likes (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, comment_id INTEGER NOT NULL, created_at TEXT NOT NULL,
  UNIQUE (user_id, comment_id));
CREATE TABLE venmo_bank_transfers (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, transfer_type TEXT NOT NULL, amount REAL NOT NULL,
  payment_card_digits TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE venmo_notifications (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, type TEXT NOT NULL, title TEXT NOT NULL, message TEXT NOT NULL,
  read INTEGER NOT NULL, created_at TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE venmo_payment_requests (id INTEGER PRIMARY KEY, sender_id INTEGER NOT NULL, receiver_id INTEGER NOT NULL, amount REAL NOT NULL,
  description TEXT NOT NULL, private INTEGER NOT NULL, created_at TEXT NOT NULL, approved_at TEXT, denied_at TEXT);

CREATE TABLE contacts (id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, first_name TEXT NOT NULL, last_name TEXT NOT NULL,
  email TEXT NOT NULL, phone_number TEXT NOT NULL, relationships TEXT NOT NULL, birthday TEXT NOT NULL, home_address TEXT NOT NULL,
  work_address TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL);
CREATE TABLE text_messages (id INTEGER PRIMARY KEY, sender_id INTEGER NOT NULL, receiver_id INTEGER NOT NULL, message TEXT NOT NULL, sent_at TEXT NOT NULL);
CREATE TABLE voice_messages (id INTEGER PRIMARY KEY, sender_id INTEGER NOT NULL, receiver_id INTEGER NOT NULL, message TEXT NOT NULL, sent_at TEXT NOT NULL);
CREATE TABLE alarms (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, time TEXT NOT NULL, repeat_days TEXT NOT NULL, label TEXT,
  enabled INTEGER NOT NULL, snooze_minutes INTEGER NOT NULL, vibration INTEGER NOT NULL, created_at TEXT NOT NULL);

CREATE TABLE fs_entries (id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, path TEXT NOT NULL, type TEXT NOT NULL,
  content TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (owner_id, path));

CREATE TABLE notes (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, title TEXT NOT NULL, content TEXT NOT NULL, tags TEXT NOT NULL,
  pinned INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);

CREATE INDEX idx_song_library_user ON song_library (user_id);
CREATE INDEX idx_playlists_owner ON playlists (owner_id);
CREATE INDEX idx_playlist_songs ON playlist_songs (playlist_id);
CREATE INDEX idx_tx_sender ON venmo_transactions (sender_id);
CREATE INDEX idx_tx_receiver ON venmo_transactions (receiver_id);
CREATE INDEX idx_contacts_owner ON contacts (owner_id);
CREATE INDEX idx_notes_user ON notes (user_id);
${AMAZON_SCHEMA_SQL}
${GMAIL_SCHEMA_SQL}
${SPLITWISE_SQL}
${TODOIST_SQL}
`;

/** Tables in a stable order (the evaluator and the benchmark iterate them). */
export const TABLES = [
  'users',
  'accounts',
  'addresses',
  'payment_cards',
  'supervisor_tasks',
  'artists',
  'albums',
  'songs',
  'playlists',
  'playlist_songs',
  'song_library',
  'album_library',
  'liked_songs',
  'liked_albums',
  'liked_playlists',
  'following_artists',
  'downloaded_songs',
  'song_reviews',
  'album_reviews',
  'playlist_reviews',
  'spotify_queue',
  'spotify_player',
  'spotify_payment_cards',
  'spotify_premium_subscriptions',
  'venmo_balances',
  'venmo_friends',
  'venmo_payment_cards',
  'venmo_transactions',
  'venmo_payment_requests',
  'venmo_transaction_likes',
  'venmo_comments',
  'venmo_comment_likes',
  'venmo_notifications',
  'venmo_bank_transfers',
  'contacts',
  'text_messages',
  'voice_messages',
  'alarms',
  'fs_entries',
  'notes',
  ...AMAZON_TABLES,
  ...GMAIL_TABLES,
  ...SPLITWISE_TABLES,
  ...TODOIST_TABLES,
] as const;
export type TableName = (typeof TABLES)[number];

/** The account apps, alphabetical (the order `show_account_passwords` lists them in). */
export const ACCOUNT_APPS = ['amazon', 'file_system', 'gmail', 'phone', 'simple_note', 'splitwise', 'spotify', 'todoist', 'venmo'] as const;

/** AppWorld's frozen clock (DEFAULT_SYSTEM_DATETIME). */
export const DEFAULT_DATETIME = '2023-05-18T12:00:00';

/**
 * A change log filled by triggers: every insert, update or delete records (table, id). The
 * evaluator then diffs only the touched rows against the episode's start image.
 */
export function changeLogSql(): string {
  const parts = ['CREATE TABLE _changes (tbl TEXT NOT NULL, row_id INTEGER NOT NULL);'];
  for (const t of TABLES) {
    parts.push(`CREATE TRIGGER _ins_${t} AFTER INSERT ON ${t} BEGIN INSERT INTO _changes VALUES ('${t}', NEW.id); END;`);
    parts.push(`CREATE TRIGGER _upd_${t} AFTER UPDATE ON ${t} BEGIN INSERT INTO _changes VALUES ('${t}', OLD.id); INSERT INTO _changes VALUES ('${t}', NEW.id); END;`);
    parts.push(`CREATE TRIGGER _del_${t} AFTER DELETE ON ${t} BEGIN INSERT INTO _changes VALUES ('${t}', OLD.id); END;`);
  }
  return parts.join('\n');
}
