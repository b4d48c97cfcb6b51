// Same library, same query, same answer on every device: the hybrid result lists computed in
// Chromium (the app) and in Node (the same modules, run directly in this test process) must be
// identical, scores included. Uses formats whose parsers are the same code in both places.
import { test, expect } from '@playwright/test';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbedder } from '../workers/embed/embedder';
import { createNodeKernel, readUseLiteFile } from '../workers/embed/node-kernel';
import { createImporter } from '../workers/ingest/importer';
import { openTestLibrary } from '../workers/db/node-library.testkit';
import { openNodeDatabase } from '../workers/store/open-database-node';
import { createStore } from '../workers/store/store';
import { FIXTURES, openApp, search, waitForImport } from './helpers';

const FILES = ['sample.txt', 'notes.md', 'letter.docx'];
const QUERIES = ['animals on an island', 'music lesson on a rainy day', 'wombat census', 'jam'];

type Row = [path: string, seq: number, score: string];

async function nodeResults(): Promise<Row[][]> {
  const db = await openNodeDatabase();
  const store = await createStore(db);
  const importer = createImporter({
    sink: store,
    cleanHtml: () => Promise.reject(new Error('no HTML here')),
  });
  const report = await importer.importFiles(
    FILES.map((name) => {
      const bytes = readFileSync(join(FIXTURES, name));
      return {
        path: name,
        name,
        size: bytes.length,
        modified: statSync(join(FIXTURES, name)).mtimeMs,
        type: '',
        data: new Blob([bytes]),
      };
    }),
  );
  expect(report.failures).toEqual([]);
  const embedder = createEmbedder({
    loadKernel: createNodeKernel,
    fetchModelFile: readUseLiteFile,
    loadGolden: () => Promise.reject(new Error('not needed')),
  });
  const info = await embedder.init();
  const { hybrid, semantic } = await openTestLibrary(store, {
    model: info,
    embed: (texts, signal) => embedder.embedTexts(texts, { signal }),
  });
  await semantic.start();
  const out: Row[][] = [];
  for (const query of QUERIES) {
    // The app's page: one entry per document, shown by its best passage.
    const res = await hybrid.search({ query, mode: 'hybrid', documents: 10 });
    out.push(
      res.documents!.map((d) => d.passages[0]!).map((h) => [h.path, h.seq, h.score.toFixed(6)]),
    );
  }
  return out;
}

test('hybrid results are identical in Chromium and in Node', async ({ page }) => {
  const expected = await nodeResults();
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles(FILES.map((f) => join(FIXTURES, f)));
  await waitForImport(page);
  await expect(page.getByTestId('semantic-pill')).toHaveAttribute('data-phase', 'ready', {
    timeout: 90_000,
  });
  await page.getByTestId('mode').selectOption('hybrid');
  const actual: Row[][] = [];
  for (const query of QUERIES) {
    await search(page, query);
    actual.push(
      await page
        .getByTestId('result')
        .evaluateAll((items) =>
          items.map((li): Row => [
            li.getAttribute('data-path') ?? '',
            Number(li.getAttribute('data-seq')),
            Number(li.getAttribute('data-score')).toFixed(6),
          ]),
        ),
    );
  }
  expect(actual.flat().length).toBeGreaterThan(4);
  expect(actual).toEqual(expected);
});
