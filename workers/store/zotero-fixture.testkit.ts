// Test support: a small synthetic Zotero data folder. `zotero.sqlite` has the real Zotero schema's
// tables the reader uses (items, itemTypes, itemData, itemDataValues, fields, creators,
// itemCreators, collections, collectionItems, itemAttachments, deletedItems) with Zotero's column
// names; two papers with stored PDFs, a note, a deleted item, a collection and a sub-collection.
import type { OpenedDatabase } from './open-database';
import type { Sql } from './sql';

const SCHEMA = `
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
  dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL,
  version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT,
  UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1,
  orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
  parentCollectionID INT DEFAULT NULL, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
  UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0,
  PRIMARY KEY (collectionID, itemID));
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT,
  charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT, storageHash TEXT,
  lastProcessedModificationTime INT);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
`;

/** The PDFs the fixture's attachments point to: path inside the data folder -> text on page 1. */
export const ZOTERO_FIXTURE_FILES = {
  'storage/ATT00001/doll-hill-1954.pdf':
    'The mortality of doctors in relation to their smoking habits. Deaths from lung cancer rose steeply with the amount smoked.',
  'storage/ATT00002/green-tea.pdf':
    'A randomised trial of green tea extract found no change in blood pressure after twelve weeks.',
} as const;

/** Writes the fixture library into `sql` (an empty database). */
export async function writeZoteroFixture(sql: Sql): Promise<void> {
  await sql.exec(SCHEMA);
  const types = ['journalArticle', 'attachment', 'note', 'report'];
  for (const [i, t] of types.entries()) {
    await sql.run('INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)', [i + 1, t]);
  }
  const fieldNames = ['title', 'date', 'DOI', 'publicationTitle', 'url', 'extra'];
  for (const [i, f] of fieldNames.entries()) {
    await sql.run('INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)', [i + 1, f]);
  }
  const item = (id: number, type: string, key: string) =>
    sql.run('INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)', [
      id,
      types.indexOf(type) + 1,
      key,
    ]);
  let valueId = 0;
  const data = async (itemId: number, field: string, value: string) => {
    valueId++;
    await sql.run('INSERT INTO itemDataValues (valueID, value) VALUES (?, ?)', [valueId, value]);
    await sql.run('INSERT INTO itemData (itemID, fieldID, valueID) VALUES (?, ?, ?)', [
      itemId,
      fieldNames.indexOf(field) + 1,
      valueId,
    ]);
  };
  await item(1, 'journalArticle', 'PAPER001');
  await data(1, 'title', 'The mortality of doctors in relation to their smoking habits');
  await data(1, 'date', '1954-06-26 1954-06-26');
  await data(1, 'DOI', '10.1136/bmj.1.4877.1451');
  await data(1, 'publicationTitle', 'BMJ');
  await item(2, 'report', 'PAPER002');
  await data(2, 'title', 'Green tea extract and blood pressure');
  await data(2, 'date', '2019-00-00 2019');
  await data(2, 'extra', 'arXiv: 1901.00001');
  await item(3, 'attachment', 'ATT00001');
  await item(4, 'attachment', 'ATT00002');
  await item(5, 'note', 'NOTE0001');
  await item(6, 'journalArticle', 'TRASHED1');
  await data(6, 'title', 'A paper in the trash');
  await sql.run('INSERT INTO deletedItems (itemID) VALUES (6)');
  const creators: Array<[number, string, string]> = [
    [1, 'Richard', 'Doll'],
    [2, 'A. Bradford', 'Hill'],
    [3, 'Mei', 'Chen'],
  ];
  for (const [id, first, last] of creators) {
    await sql.run(
      'INSERT INTO creators (creatorID, firstName, lastName, fieldMode) VALUES (?, ?, ?, 0)',
      [id, first, last],
    );
  }
  for (const [itemId, creatorId, order] of [
    [1, 1, 0],
    [1, 2, 1],
    [2, 3, 0],
  ]) {
    await sql.run('INSERT INTO itemCreators (itemID, creatorID, orderIndex) VALUES (?, ?, ?)', [
      itemId!,
      creatorId!,
      order!,
    ]);
  }
  await sql.run(
    `INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) VALUES
       (3, 1, 0, 'application/pdf', 'storage:doll-hill-1954.pdf'),
       (4, 2, 0, 'application/pdf', 'storage:green-tea.pdf')`,
  );
  await sql.run(
    `INSERT INTO collections (collectionID, collectionName, parentCollectionID, libraryID, key) VALUES
       (1, 'Smoking', NULL, 1, 'COLL0001'), (2, 'Trials', 1, 1, 'COLL0002')`,
  );
  await sql.run(
    'INSERT INTO collectionItems (collectionID, itemID, orderIndex) VALUES (1, 1, 0), (2, 2, 0), (2, 6, 1)',
  );
}

/** The fixture as zotero.sqlite bytes, built in `db`'s scratch space. */
export async function zoteroFixtureBytes(db: OpenedDatabase): Promise<Uint8Array> {
  const z = await db.scratch.open('zotero-fixture.sqlite', { create: true });
  try {
    await writeZoteroFixture(z);
  } finally {
    await z.close();
  }
  const bytes = db.scratch.read('zotero-fixture.sqlite')!;
  db.scratch.remove('zotero-fixture.sqlite');
  return bytes;
}
