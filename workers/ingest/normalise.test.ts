import { describe, expect, it } from 'vitest';
import { normaliseText } from './normalise';
import { sha256Hex } from './hash';

describe('normaliseText', () => {
  it('composes to NFC so both spellings of é match', () => {
    expect(normaliseText('cafe\u0301')).toBe('caf\u00e9');
  });

  it('turns CRLF and lone CR into LF and drops a BOM', () => {
    expect(normaliseText('\uFEFFa\r\nb\rc')).toBe('a\nb\nc');
  });

  it('removes trailing spaces at line ends but keeps inner and leading indentation', () => {
    expect(normaliseText('a  \n  b\t\nc')).toBe('a\n  b\nc');
  });

  it('collapses runs of blank lines into one paragraph break', () => {
    expect(normaliseText('a\n\n\n\n b\r\n\r\n\r\nc')).toBe('a\n\n b\n\nc');
    expect(normaliseText('a\n  \n\t\n\nb')).toBe('a\n\nb');
  });

  it('drops control characters but keeps tabs and newlines', () => {
    expect(normaliseText('a\u0000b\u0007c\td\ne\u007f')).toBe('abc\td\ne');
  });

  it('trims the whole text and is idempotent', () => {
    const once = normaliseText('\n\n  Title  \r\n\r\n\r\nBody text.\u00a0 \n\n');
    expect(once).toBe('Title\n\nBody text.'); // trim() also drops NBSP
    expect(normaliseText(once)).toBe(once);
  });
});

describe('sha256Hex', () => {
  it('matches the FIPS 180-2 test vectors', async () => {
    expect(await sha256Hex('')).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(await sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(await sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes the UTF-8 bytes of non-ASCII text', async () => {
    // printf 'é' | sha256sum (UTF-8 bytes c3 a9)
    expect(await sha256Hex('\u00e9')).toBe(
      '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c',
    );
  });

  it('gives the same hash for text that differs only cosmetically once normalised', async () => {
    const a = await sha256Hex(normaliseText('Caf\u00e9 menu\r\n\r\n\r\nSoup  '));
    const b = await sha256Hex(normaliseText('Cafe\u0301 menu\n\nSoup'));
    expect(a).toBe(b);
    expect(a).not.toBe(await sha256Hex(normaliseText('Cafe menu\n\nSoup')));
  });
});
