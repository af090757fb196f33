import { describe, expect, it } from 'vitest';
import { BYTE_LEVEL_ALPHABET, BYTE_TO_CHAR, fromByteLevel, toByteLevel } from './bytelevel.js';

describe('byte-level alphabet', () => {
  it('maps 256 bytes to 256 distinct characters, printable ASCII to itself', () => {
    expect(new Set(BYTE_TO_CHAR).size).toBe(256);
    expect(BYTE_TO_CHAR[0x41]).toBe('A');
    expect(BYTE_TO_CHAR[0x20]).toBe('Ġ'); // GPT-2's space
    expect(BYTE_TO_CHAR[0x0a]).toBe('Ċ'); // GPT-2's newline
    expect(BYTE_TO_CHAR[0xad]).toBe('Ń'); // soft hyphen is shifted too
  });

  it('sorts the alphabet by code point', () => {
    expect(BYTE_LEVEL_ALPHABET[0]).toBe('!');
    expect(BYTE_LEVEL_ALPHABET[255]).toBe('Ń');
  });

  it('round-trips UTF-8 bytes', () => {
    const s = 'héllo 世界 🚀\n';
    const bl = toByteLevel(s);
    expect(new TextDecoder().decode(fromByteLevel(bl))).toBe(s);
    expect(fromByteLevel('abc€')).toBeUndefined();
  });
});
