// Reading a Zotero data folder's database (a synthetic zotero.sqlite with Zotero's real tables):
// works with authors in order, year, DOI, arXiv id, their stored PDFs' paths, collections as
// paths; notes, attachments and trashed items left out; a non-Zotero database refused clearly.
import { describe, expect, it } from 'vitest';
import { openNodeDatabase } from './open-database-node';
import { writeZoteroFixture, zoteroFixtureBytes } from './zotero-fixture.testkit';
import { readZoteroDatabase } from './zotero-read';

describe('readZoteroDatabase', () => {
  it('reads works, creators, dates, stored attachments and collections', async () => {
    const db = await openNodeDatabase();
    const bytes = await zoteroFixtureBytes(db);
    db.scratch.write('zotero.sqlite', bytes);
    const z = await db.scratch.open('zotero.sqlite');
    const lib = await readZoteroDatabase(z);
    expect(lib.items).toEqual([
      {
        itemId: 1,
        key: 'PAPER001',
        biblio: {
          source: 'zotero',
          type: 'article-journal',
          title: 'The mortality of doctors in relation to their smoking habits',
          authors: [
            { family: 'Doll', given: 'Richard' },
            { family: 'Hill', given: 'A. Bradford' },
          ],
          year: 1954,
          doi: '10.1136/bmj.1.4877.1451',
          container: 'BMJ',
        },
        attachments: [
          { path: 'storage/ATT00001/doll-hill-1954.pdf', contentType: 'application/pdf' },
        ],
      },
      {
        itemId: 2,
        key: 'PAPER002',
        biblio: {
          source: 'zotero',
          type: 'report',
          title: 'Green tea extract and blood pressure',
          authors: [{ family: 'Chen', given: 'Mei' }],
          year: 2019,
          arxiv: '1901.00001',
        },
        attachments: [{ path: 'storage/ATT00002/green-tea.pdf', contentType: 'application/pdf' }],
      },
    ]);
    expect(lib.collections).toEqual([
      { name: 'Smoking', itemIds: [1] },
      { name: 'Smoking / Trials', itemIds: [2] },
    ]);
    // query_only: the reader cannot write to Zotero's database.
    await expect(z.exec('DELETE FROM items')).rejects.toBeDefined();
    await z.close();
    await db.close();
  });

  it('refuses a database that is not Zotero’s, saying which folder to pick', async () => {
    const db = await openNodeDatabase();
    await expect(readZoteroDatabase(db.sql)).rejects.toMatchObject({ code: 'PARSE_FAILED' });
    await expect(readZoteroDatabase(db.sql)).rejects.toThrow(/Zotero data folder/);
    await db.close();
  });

  it('writes the fixture with Zotero’s column names', async () => {
    const db = await openNodeDatabase();
    const z = await db.scratch.open('z.sqlite', { create: true });
    await writeZoteroFixture(z);
    const cols = await z.all<{ name: string }>(
      "SELECT name FROM pragma_table_info('itemAttachments')",
    );
    expect(cols.map((c) => c.name)).toContain('parentItemID');
    await z.close();
    await db.close();
  });
});
