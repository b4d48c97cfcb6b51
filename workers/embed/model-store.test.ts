// The model store over in-memory storage and an injected fetch (a fake hub answering from memory):
// download with byte progress, quota check first, 404 / offline / cancel errors that leave nothing
// behind, validation of each file, import from a picked folder, and the remembered active model.
// Files: the real all-MiniLM-L6-v2 tokenizer and config shape family, seeded random weights.
import { describe, expect, it } from 'vitest';
import type { ModelTransferProgress } from '../shared/embed-api';
import { AppError } from '../shared/errors';
import { checkSafetensorsHeader, parseBertConfig } from './bert-files';
import {
  createMemoryStorage,
  createModelStore,
  quotaNeeded,
  sha256HexOf,
  type ModelStoreDeps,
} from './model-store';
import {
  bertFolder,
  minilmConfig,
  seededSafetensors,
  type BertFolder,
} from './bert-weights.testkit';

const folder = bertFolder(7);
/** Some of a model folder's files; a file set to undefined is missing. */
type SomeFiles = { [K in keyof BertFolder]?: BertFolder[K] | undefined };

/** A fake hub: serves `files` under /<repo>/resolve/main/ in 64 KiB chunks. */
function hub(
  files: SomeFiles,
  opts: { onChunk?: (file: string, i: number) => void } = {},
): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  const f = (async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    urls.push(url);
    const name = url.split('/resolve/main/')[1] as keyof BertFolder;
    const bytes = files[name];
    if (!bytes) return new Response('Entry not found', { status: 404 });
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        const start = i * 65536;
        if (start >= bytes.length) return c.close();
        opts.onChunk?.(name, i);
        c.enqueue(bytes.slice(start, start + 65536));
        i++;
      },
    });
    return new Response(body, { headers: { 'content-length': String(bytes.length) } });
  }) as typeof fetch;
  return { fetch: f, urls };
}

function store(overrides: Partial<ModelStoreDeps> = {}) {
  const storage = createMemoryStorage();
  const s = createModelStore({ storage, now: () => 1000, ...overrides });
  return { storage, s };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).code + ': ' + (err as AppError).message;
  }
  throw new Error('expected a rejection');
}

describe('model store: download', () => {
  it('downloads the three files with growing byte progress and stores a manifest', async () => {
    const h = hub(folder);
    const { s, storage } = store({
      fetch: h.fetch,
      estimate: async () => ({ quota: 10e9, usage: 0 }),
    });
    const progress: ModelTransferProgress[] = [];
    const m = await s.download('all-MiniLM-L6-v2', {
      baseUrl: 'http://127.0.0.1:9/',
      onProgress: (p) => progress.push(p),
    });
    expect(h.urls).toEqual([
      'http://127.0.0.1:9/sentence-transformers/all-MiniLM-L6-v2/resolve/main/config.json',
      'http://127.0.0.1:9/sentence-transformers/all-MiniLM-L6-v2/resolve/main/tokenizer.json',
      'http://127.0.0.1:9/sentence-transformers/all-MiniLM-L6-v2/resolve/main/model.safetensors',
    ]);
    const total =
      folder['config.json'].length +
      folder['tokenizer.json'].length +
      folder['model.safetensors'].length;
    expect(m.sizeBytes).toBe(total);
    expect(m.sha256).toBe(await sha256HexOf(folder['model.safetensors'].slice().buffer));
    expect(m).toMatchObject({ id: 'all-MiniLM-L6-v2', source: 'download', dim: 64, layers: 2 });
    const loadedSeq = progress.filter((p) => p.phase === 'downloading').map((p) => p.loaded);
    expect(loadedSeq.length).toBeGreaterThan(10);
    expect(loadedSeq).toEqual([...loadedSeq].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ phase: 'done', loaded: total, total });
    expect(progress[0]!.phase).toBe('checking');
    expect(await s.list()).toEqual([m]);
    const stored = await (await storage.read(m.id, 'model.safetensors'))!.arrayBuffer();
    // Buffer.equals: vitest's deep equality is very slow on megabytes.
    expect(Buffer.from(stored).equals(folder['model.safetensors'])).toBe(true);
    const loaded = await s.load(m.id);
    expect(loaded.config.hidden_size).toBe(64);
    expect(loaded.tokenizer.encode('Hello world').ids).toEqual([101, 7592, 2088, 102]);
  });

  it('refuses before downloading when the free quota is below size plus margin', async () => {
    const h = hub(folder);
    const size = 612 + 466_247 + 90_868_376;
    const { s, storage } = store({
      fetch: h.fetch,
      estimate: async () => ({ quota: quotaNeeded(size) - 1 + 5000, usage: 5000 }),
    });
    const err = await code(s.download('all-MiniLM-L6-v2'));
    expect(err).toMatch(/^QUOTA_INSUFFICIENT: .*MB/);
    expect(h.urls).toEqual([]);
    expect(storage.files.size).toBe(0);
    // One byte more and it goes ahead.
    const ok = store({
      fetch: h.fetch,
      estimate: async () => ({ quota: quotaNeeded(size) + 5000, usage: 5000 }),
    });
    await expect(ok.s.download('all-MiniLM-L6-v2')).resolves.toMatchObject({
      id: 'all-MiniLM-L6-v2',
    });
  });

  it('names the missing file on 404 and leaves nothing behind', async () => {
    const { s, storage } = store({ fetch: hub({ ...folder, 'tokenizer.json': undefined }).fetch });
    const err = await code(s.download('e5-small-v2', { baseUrl: 'http://127.0.0.1:9' }));
    expect(err).toMatch(
      /^MODEL_LOAD_FAILED: .*tokenizer\.json was not found at http:\/\/127\.0\.0\.1:9\/intfloat\/e5-small-v2\/resolve\/main\/tokenizer\.json \(HTTP 404\)/,
    );
    expect(storage.files.size).toBe(0);
    expect(await s.list()).toEqual([]);
  });

  it('reports OFFLINE when the hub cannot be reached', async () => {
    const { s } = store({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
      online: () => false,
    });
    expect(await code(s.download('gte-small'))).toMatch(/^OFFLINE: .*huggingface\.co.*offline/);
  });

  it('cancels mid-file with ABORTED and removes the partial download', async () => {
    const controller = new AbortController();
    const { s, storage } = store({
      fetch: hub(folder, {
        onChunk: (file, i) => {
          if (file === 'model.safetensors' && i === 3) controller.abort();
        },
      }).fetch,
    });
    expect(await code(s.download('all-MiniLM-L6-v2', { signal: controller.signal }))).toMatch(
      /^ABORTED/,
    );
    expect(storage.files.size).toBe(0);
  });

  it('rejects a download whose weights do not match config.json, naming the tensor', async () => {
    const wrong = seededSafetensors(
      { ...minilmConfig(true), hidden_size: 32, num_attention_heads: 4 },
      1,
    );
    const { s, storage } = store({ fetch: hub({ ...folder, 'model.safetensors': wrong }).fetch });
    expect(await code(s.download('all-MiniLM-L6-v2'))).toMatch(
      /^MODEL_LOAD_FAILED: .*embeddings\.word_embeddings\.weight .*30522x64/,
    );
    expect(storage.files.size).toBe(0);
  });

  it('refuses a second install of the same model until it is deleted', async () => {
    const { s } = store({ fetch: hub(folder).fetch });
    await s.download('all-MiniLM-L6-v2');
    expect(await code(s.download('all-MiniLM-L6-v2'))).toMatch(
      /^INVALID_ARGUMENT: .*Delete it first/,
    );
    await s.remove('all-MiniLM-L6-v2');
    expect(await s.list()).toEqual([]);
    await expect(s.download('all-MiniLM-L6-v2')).resolves.toBeTruthy();
  });
});

describe('model store: import and validation', () => {
  const blobs = (f: SomeFiles, dir = 'my-model') =>
    Object.entries(f)
      .filter(([, v]) => v)
      .map(([name, v]) => ({ name: `${dir}/${name}`, data: new Blob([v as BlobPart]) }));

  it('imports a picked folder (paths with the folder name, extra files ignored)', async () => {
    const { s } = store();
    const m = await s.importFiles('bge-small-en-v1.5', [
      ...blobs(folder),
      { name: 'my-model/README.md', data: new Blob(['hi']) },
    ]);
    expect(m).toMatchObject({ id: 'bge-small-en-v1.5', source: 'import', dim: 64 });
    expect((await s.load(m.id)).weights.byteLength).toBe(folder['model.safetensors'].length);
  });

  it('names the missing files of an incomplete folder', async () => {
    const { s, storage } = store();
    expect(
      await code(s.importFiles('gte-small', blobs({ ...folder, 'model.safetensors': undefined }))),
    ).toMatch(/^MODEL_LOAD_FAILED: .*no model\.safetensors/);
    expect(storage.files.size).toBe(0);
  });

  it('rejects a tokenizer that is not WordPiece', async () => {
    const tok = JSON.parse(new TextDecoder().decode(folder['tokenizer.json'])) as {
      model: { type: string };
    };
    tok.model.type = 'Unigram';
    const { s } = store();
    expect(
      await code(
        s.importFiles(
          'gte-small',
          blobs({ ...folder, 'tokenizer.json': new TextEncoder().encode(JSON.stringify(tok)) }),
        ),
      ),
    ).toMatch(/^MODEL_LOAD_FAILED: .*Unigram tokenizer; BERT-family models need WordPiece/);
  });

  it('rejects unknown profiles and unsupported configs', async () => {
    const { s } = store();
    expect(await code(s.importFiles('gpt2', blobs(folder)))).toMatch(
      /^INVALID_ARGUMENT: .*Unknown model gpt2/,
    );
    expect(() => parseBertConfig('{"model_type":"roberta"}')).toThrow(/vocab_size/);
    expect(() =>
      parseBertConfig(JSON.stringify({ ...minilmConfig(true), hidden_act: 'relu' })),
    ).toThrow(/relu is not supported/);
  });

  it('detects a truncated weights file from its header alone', async () => {
    const w = folder['model.safetensors'];
    await expect(
      checkSafetensorsHeader(new Blob([w.slice(0, w.length - 4)]), minilmConfig(true)),
    ).rejects.toThrow(/truncated/);
    await expect(
      checkSafetensorsHeader(new Blob([w as BlobPart]), minilmConfig(true)),
    ).resolves.toBeUndefined();
  });

  it('refuses to load weights changed after install (SHA-256 in the manifest)', async () => {
    const { s, storage } = store();
    await s.importFiles('all-MiniLM-L6-v2', blobs(folder));
    const other = bertFolder(8)['model.safetensors'];
    storage.files.set('all-MiniLM-L6-v2/model.safetensors', new Blob([other as BlobPart]));
    expect(await code(s.load('all-MiniLM-L6-v2'))).toMatch(/^MODEL_LOAD_FAILED: .*changed since/);
  });

  it('remembers the active model and forgets it when that model is deleted', async () => {
    const { s } = store();
    expect(await s.getActiveId()).toBeNull();
    await s.importFiles('e5-small-v2', blobs(folder));
    await s.setActiveId('e5-small-v2');
    expect(await s.getActiveId()).toBe('e5-small-v2');
    await s.remove('e5-small-v2');
    expect(await s.getActiveId()).toBe('use-lite');
    expect(await code(s.remove('e5-small-v2'))).toMatch(/^NOT_FOUND/);
  });

  it('lists the catalogue with repos, sizes and profiles', () => {
    const c = store().s.catalogue();
    expect(c.map((e) => [e.id, e.repo])).toEqual([
      ['all-MiniLM-L6-v2', 'sentence-transformers/all-MiniLM-L6-v2'],
      ['bge-small-en-v1.5', 'BAAI/bge-small-en-v1.5'],
      ['e5-small-v2', 'intfloat/e5-small-v2'],
      ['gte-small', 'thenlper/gte-small'],
    ]);
    expect(c.find((e) => e.id === 'e5-small-v2')!.profile).toMatchObject({
      queryPrefix: 'query: ',
      passagePrefix: 'passage: ',
    });
    expect(c.find((e) => e.id === 'bge-small-en-v1.5')!.profile.pooling).toBe('cls');
    for (const e of c) expect(e.sizeBytes).toBeGreaterThan(60e6);
  });
});
