// A project's references as BibTeX and CSL-JSON: round-trip through our own readers, unique keys,
// and hostile records (braces, backslash commands, "@" and newlines from an imported file) that
// stay inside their field.
import { describe, expect, it } from 'vitest';
import { parseBibtex, parseCslJson } from '../ingest/bib-parse';
import { bibtexEscape, toBibtex, toCslJson, type ExportReference } from './bib-export';

const refs: ExportReference[] = [
  {
    fallbackTitle: 'doll.pdf',
    biblio: {
      source: 'zotero',
      type: 'article-journal',
      title: 'Mortality & smoking: 50% of {doctors}',
      authors: [
        { family: 'Doll', given: 'Richard' },
        { family: 'Hill', given: 'A. Bradford' },
      ],
      year: 1954,
      container: 'BMJ',
      doi: '10.1136/bmj.1.4877.1451',
    },
  },
  {
    fallbackTitle: 'who.pdf',
    biblio: { source: 'pdf', authors: [{ family: 'World Health Organization' }], year: 1954 },
  },
  {
    fallbackTitle: 'evil.pdf',
    biblio: {
      source: 'bibtex',
      title: 'x} , note = {pwned} } @misc{evil, title={\\input{/etc/passwd}}',
      authors: [{ family: 'Doll' }],
      year: 1954,
    },
  },
];

describe('toBibtex', () => {
  it('writes entries our reader reads back, with unique keys', () => {
    const text = toBibtex(refs);
    const { entries, skipped } = parseBibtex(text);
    expect(skipped).toBe(0);
    expect(entries.map((e) => e.key)).toEqual([
      'doll1954',
      'worldhealthorganization1954',
      'doll1954a',
    ]);
    expect(entries[0]).toMatchObject({
      title: 'Mortality & smoking: 50% of {doctors}',
      authors: refs[0]!.biblio.authors,
      year: 1954,
      doi: '10.1136/bmj.1.4877.1451',
      container: 'BMJ',
      type: 'article-journal',
    });
    expect(entries[1]!.authors).toEqual([{ family: 'World Health Organization' }]);
    expect(entries[1]!.title).toBe('who.pdf');
  });

  it('keeps a hostile title inside its field: no new entry, no field, no command', () => {
    const text = toBibtex([refs[2]!]);
    const { entries } = parseBibtex(text);
    expect(entries).toHaveLength(1);
    expect(text).not.toMatch(/\\input\{/);
    expect(text.match(/^\s*note\s*=/m)).toBeNull();
    expect(text.match(/@misc\{evil/)).toBeNull();
    expect(bibtexEscape('a\\b{c}')).toBe('a\\textbackslash{}b\\{c\\}');
  });
});

describe('toCslJson', () => {
  it('writes CSL-JSON our reader reads back', () => {
    const { entries } = parseCslJson(toCslJson(refs));
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      key: 'doll1954',
      year: 1954,
      doi: '10.1136/bmj.1.4877.1451',
    });
    expect(entries[2]!.title).toBe(refs[2]!.biblio.title);
  });
});
