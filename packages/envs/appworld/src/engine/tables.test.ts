// The typed row accessors run exactly the SQL they are given (head, one space, tail) and answer
// what better-sqlite3 answers for it: rows in order, undefined for no row, counts, ids, existence.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { count, exists, ids, row, rows, select, table } from './tables.js';

interface PetRow {
  id: number;
  owner: string;
  name: string;
}

function pets() {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE pets (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, name TEXT NOT NULL); INSERT INTO pets (owner, name) VALUES ('ann', 'rex'), ('bob', 'tom'), ('ann', 'kit');");
  return { db };
}

describe('typed row accessors', () => {
  it('a table reads its rows by id and by a WHERE/ORDER BY tail', () => {
    const ctx = pets();
    const t = table<PetRow>('pets');
    expect(t.name).toBe('pets');
    expect(t.sql).toBe('SELECT * FROM pets');
    expect(t.byId(ctx, 2)).toEqual({ id: 2, owner: 'bob', name: 'tom' });
    expect(t.byId(ctx, 9)).toBeUndefined();
    expect(t.all(ctx).map((p) => p.name)).toEqual(['rex', 'tom', 'kit']);
    expect(t.all(ctx, 'WHERE owner = ? ORDER BY name', 'ann').map((p) => p.name)).toEqual(['kit', 'rex']);
    expect(t.one(ctx, 'WHERE owner = ? ORDER BY id DESC', 'ann')?.name).toBe('kit');
  });

  it('a SELECT head takes joins and conditions as its tail, with the parameters in order', () => {
    const ctx = pets();
    const named = select<{ name: string; other: string }>('SELECT a.name, b.name AS other FROM pets a');
    expect(named.all(ctx, 'JOIN pets b ON b.owner = a.owner AND b.id > a.id WHERE a.owner = ?', 'ann')).toEqual([{ name: 'rex', other: 'kit' }]);
    expect(named.one(ctx, 'JOIN pets b ON b.owner = a.owner AND b.id > a.id WHERE a.owner = ?', 'bob')).toBeUndefined();
    // A tail that is not valid SQL after the head fails as better-sqlite3 fails, naming the SQL error.
    expect(() => named.all(ctx, 'WHERE')).toThrow(/syntax error|incomplete input/);
  });

  it('ad-hoc reads: one row, all rows, a count, the ids, existence', () => {
    const ctx = pets();
    expect(row<{ n: string }>(ctx, 'SELECT name AS n FROM pets WHERE id = ?', 3)).toEqual({ n: 'kit' });
    expect(rows<{ owner: string }>(ctx, 'SELECT DISTINCT owner FROM pets ORDER BY owner')).toEqual([{ owner: 'ann' }, { owner: 'bob' }]);
    expect(count(ctx, 'SELECT count(*) AS n FROM pets WHERE owner = ?', 'ann')).toBe(2);
    expect(ids(ctx, 'SELECT id FROM pets WHERE owner = ? ORDER BY id DESC', 'ann')).toEqual([3, 1]);
    expect(exists(ctx, 'SELECT 1 FROM pets WHERE name = ?', 'tom')).toBe(true);
    expect(exists(ctx, 'SELECT 1 FROM pets WHERE name = ?', 'max')).toBe(false);
  });
});
