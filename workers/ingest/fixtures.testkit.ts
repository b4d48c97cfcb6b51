// The e2e fixture documents (e2e/fixtures, see its README) for the importer tests: where they
// are, the ones that import cleanly with the word only each of them holds (the words the e2e
// specs search for), and their bytes. Test support only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(__dirname, '../../e2e/fixtures');

/** The fixtures that import without a failure, each with its distinctive word. */
export const FIXTURE_WORDS = [
  ['xylophone', 'sample.txt'],
  ['quokka', 'notes.md'],
  ['narwhal', 'page.html'],
  ['pelican', 'report.pdf'],
  ['wombat', 'letter.docx'],
  ['gooseberry', 'hostile.html'],
] as const;

/** The names of FIXTURE_WORDS, in the same order. */
export const GOOD_FIXTURES: string[] = FIXTURE_WORDS.map(([, name]) => name);

export function readFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)));
}
