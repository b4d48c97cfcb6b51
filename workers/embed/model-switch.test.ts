// The embedder with a model store: USE-lite by default, activating a stored BERT model (vectors
// equal loadBert's own on the same files, with the profile's query/passage prefixes), the choice
// remembered across restarts, versions that change with weights and profile, self-tests of
// both kinds, deletion, and the same over the Comlink boundary.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as Comlink from 'comlink';
import { beforeAll, describe, expect, it } from 'vitest';
import { installErrorTransfer } from '../shared/comlink-errors';
import { embedWithSignal, type EmbedWorkerApi } from '../shared/embed-api';
import { AppError } from '../shared/errors';
import { loadBert } from './bert';
import { parseBertConfig, parseWordPieceTokenizer } from './bert-files';
import { createEmbedder } from './embedder';
import { bertVersion } from './model-info';
import { BERT_PROFILES } from './model-profiles';
import { createMemoryStorage, createModelStore, sha256HexOf } from './model-store';
import { createNodeKernel, readUseLiteFile, REPO_ROOT } from './node-kernel';
import { parseSafetensors } from './safetensors';
import type { GoldenFile } from './self-test';
import { bertFolder, type BertFolder } from './bert-weights.testkit';
import { createEmbedWorkerApi } from './worker-api';

const golden = JSON.parse(
  readFileSync(join(REPO_ROOT, 'wasm/golden/use-lite-int16-sha256.json'), 'utf8'),
) as GoldenFile;
const folderA = bertFolder(11);
const folderB = bertFolder(12);
const files = (f: BertFolder) =>
  Object.entries(f).map(([name, v]) => ({ name, data: new Blob([v as BlobPart]) }));

function setup(storage = createMemoryStorage(), fetchModelFile = readUseLiteFile) {
  const models = createModelStore({ storage });
  const embedder = createEmbedder({
    loadKernel: createNodeKernel,
    fetchModelFile,
    loadGolden: async () => golden,
    models,
    yieldToEvents: async () => undefined,
  });
  return { storage, models, embedder };
}

/** loadBert directly on the same files: what the embedder must reproduce. */
async function direct(f: BertFolder, profileId: string) {
  const td = new TextDecoder();
  return loadBert(
    await createNodeKernel(),
    parseBertConfig(td.decode(f['config.json'])),
    parseSafetensors(f['model.safetensors'].slice().buffer),
    parseWordPieceTokenizer(td.decode(f['tokenizer.json'])),
    { ...BERT_PROFILES[profileId]!, version: 'x' },
  );
}

const TEXTS = ['Cells divide by mitosis.', 'What causes tides?', ''];
let shaA: string;
beforeAll(async () => {
  shaA = await sha256HexOf(folderA['model.safetensors'].slice().buffer);
});

describe('embedder with stored models', () => {
  it('starts with USE-lite, switches to a stored model, and remembers it on restart', async () => {
    const { storage, models, embedder } = setup();
    expect((await embedder.init()).id).toBe('use-lite');
    await models.importFiles('e5-small-v2', files(folderA));
    const listed = await embedder.listModels();
    expect(listed.map((m) => [m.id, m.active, m.deletable])).toEqual([
      ['use-lite', true, false],
      ['e5-small-v2', false, true],
    ]);
    expect(listed[1]!.sizeBytes).toBe(
      folderA['config.json'].length +
        folderA['tokenizer.json'].length +
        folderA['model.safetensors'].length,
    );
    const info = await embedder.activateModel('e5-small-v2');
    expect(info).toMatchObject({
      id: 'e5-small-v2',
      dim: 64,
      canonical: true,
      queryPrefix: 'query: ',
      passagePrefix: 'passage: ',
      version: bertVersion(shaA, 'e5-small-v2'),
    });
    expect(listed[1]!.version).toBe(info.version);

    const ref = await direct(folderA, 'e5-small-v2');
    const passages = await embedder.embedTexts(TEXTS);
    const queries = await embedder.embedTexts(TEXTS, { role: 'query' });
    TEXTS.forEach((t, i) => {
      expect(passages[i]).toEqual(ref.embedInt16('passage: ' + t));
      expect(queries[i]).toEqual(ref.embedInt16('query: ' + t));
      expect(queries[i]).not.toEqual(passages[i]);
    });
    expect(await embedder.countTokens(['Hello world'])).toEqual([
      ref.tokenize('passage: Hello world').length,
    ]);

    // A new worker on the same storage starts with the remembered model.
    const again = setup(storage).embedder;
    expect(await again.init()).toEqual(info);
    expect((await again.listModels()).find((m) => m.active)!.id).toBe('e5-small-v2');
    expect(await again.embedTexts(TEXTS)).toEqual(passages);
  });

  it('gives MiniLM no prefixes, bge its query instruction and CLS pooling', async () => {
    const { models, embedder } = setup();
    await models.importFiles('all-MiniLM-L6-v2', files(folderA));
    await models.importFiles('bge-small-en-v1.5', files(folderA));
    await embedder.activateModel('all-MiniLM-L6-v2');
    const [mq, mp] = [
      await embedder.embedTexts(TEXTS, { role: 'query' }),
      await embedder.embedTexts(TEXTS),
    ];
    expect(mq).toEqual(mp);
    const minilm = await direct(folderA, 'all-MiniLM-L6-v2');
    expect(mp[0]).toEqual(minilm.embedInt16(TEXTS[0]!));

    const bgeInfo = await embedder.activateModel('bge-small-en-v1.5');
    const bge = await direct(folderA, 'bge-small-en-v1.5');
    const [q] = await embedder.embedTexts([TEXTS[1]!], { role: 'query' });
    expect(q).toEqual(
      bge.embedInt16('Represent this sentence for searching relevant passages: ' + TEXTS[1]),
    );
    const [p] = await embedder.embedTexts([TEXTS[1]!]);
    expect(p).toEqual(bge.embedInt16(TEXTS[1]!));
    // Same weights, another profile (pooling, prefixes): another version.
    expect(bgeInfo.version).not.toBe(bertVersion(shaA, 'all-MiniLM-L6-v2'));
  });

  it('changes the version when the weights change', async () => {
    const a = setup();
    await a.models.importFiles('gte-small', files(folderA));
    const va = (await a.embedder.activateModel('gte-small')).version;
    const b = setup();
    await b.models.importFiles('gte-small', files(folderB));
    const vb = (await b.embedder.activateModel('gte-small')).version;
    expect(va).not.toBe(vb);
    expect(await a.embedder.embedTexts(TEXTS)).not.toEqual(await b.embedder.embedTexts(TEXTS));
  });

  it('self-tests USE-lite against the golden file and a BERT model by repetition', async () => {
    const { models, embedder } = setup();
    await models.importFiles('all-MiniLM-L6-v2', files(folderA));
    // Without activating: the model is loaded for the test only.
    const bert = await embedder.selfTest('all-MiniLM-L6-v2');
    expect(bert).toMatchObject({ modelId: 'all-MiniLM-L6-v2', ok: true, check: 'repeat' });
    expect(bert.hashes).toHaveLength(golden.entries.length);
    expect((await embedder.init()).id).toBe('use-lite');
    await embedder.activateModel('all-MiniLM-L6-v2');
    expect(await embedder.selfTest()).toMatchObject({ ok: true, check: 'repeat' });
    const use = await embedder.selfTest('use-lite');
    expect(use).toMatchObject({ ok: true, check: 'golden' });
    expect(use.hashes).toEqual(golden.entries.map((e) => e.sha256));
  });

  it('keeps the current model when activation fails, and refuses to delete USE-lite', async () => {
    const { embedder } = setup();
    await embedder.init();
    await expect(embedder.activateModel('e5-small-v2')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    expect((await embedder.init()).id).toBe('use-lite');
    await expect(embedder.deleteModel('use-lite')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('an activation during the first load wins, and switches apply in call order', async () => {
    // USE-lite's files arrive slowly, so the activation finishes while the first load still runs.
    const slow = async (name: string) => {
      await new Promise((r) => setTimeout(r, 400));
      return readUseLiteFile(name);
    };
    const { models, embedder } = setup(createMemoryStorage(), slow);
    await models.importFiles('e5-small-v2', files(folderA));
    await models.importFiles('gte-small', files(folderB));
    const [, info] = await Promise.all([embedder.init(), embedder.activateModel('e5-small-v2')]);
    expect(info.id).toBe('e5-small-v2');
    expect((await embedder.listModels()).find((m) => m.active)!.id).toBe('e5-small-v2');
    expect((await embedder.embedTexts(['x']))[0]!.length).toBe(64);
    await Promise.all([
      embedder.activateModel('gte-small'),
      embedder.activateModel('use-lite'),
      embedder.activateModel('e5-small-v2'),
    ]);
    expect((await embedder.init()).id).toBe('e5-small-v2');
    expect(await models.getActiveId()).toBe('e5-small-v2');
  });

  it('falls back to USE-lite when the remembered model was deleted', async () => {
    const { storage, models, embedder } = setup();
    await models.importFiles('gte-small', files(folderA));
    await embedder.activateModel('gte-small');
    await embedder.deleteModel('gte-small');
    expect((await embedder.init()).id).toBe('use-lite');
    expect((await setup(storage).embedder.init()).id).toBe('use-lite');
  });
});

describe('model management over a MessageChannel', () => {
  it('imports, lists, activates and embeds queries through the worker API', async () => {
    installErrorTransfer();
    const { models, embedder } = setup();
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(createEmbedWorkerApi(embedder, models), port1);
    const api = Comlink.wrap<EmbedWorkerApi>(port2);
    try {
      const m = await api.importModelFiles('e5-small-v2', files(folderA));
      expect(m).toMatchObject({ id: 'e5-small-v2', active: false, family: 'bert' });
      expect((await api.catalogue()).length).toBe(4);
      const info = await api.activateModel('e5-small-v2');
      const [q] = await embedWithSignal(api, ['tides'], { role: 'query' });
      const ref = await direct(folderA, 'e5-small-v2');
      expect(q).toEqual(ref.embedInt16('query: tides'));
      expect((await api.modelInfo()).version).toBe(info.version);
      await expect(api.deleteModel('nope')).rejects.toBeInstanceOf(AppError);
    } finally {
      port2.close();
      port1.close();
    }
  });
});
