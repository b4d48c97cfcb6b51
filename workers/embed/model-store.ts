// BERT-family models stored on this device: download from a model hub (quota checked first,
// streamed byte progress, cancellable), import from files the user picked, validation, a manifest
// per model (written last: a folder without one is an unfinished download and is ignored), the
// remembered active model, and reading a model back for loading.
// Storage, fetch and the quota estimate are injected (OPFS in the worker, memory in Node tests).
// Must not import Node modules, `self` or Comlink.
import type { CatalogueEntry, ModelTransferProgress } from '../shared/embed-api';
import { createError, isAppError } from '../shared/errors';
import { formatBytes } from '../shared/format-bytes';
import type { BertConfig } from './bert';
import { BERT_FILES, pickBertFiles, validateBertFiles, type BertFileName } from './bert-files';
import { BERT_CATALOGUE, BERT_PROFILES } from './model-profiles';
import { profileInfo } from './model-info';
import type { WordPieceTokenizer } from './wordpiece';

/** A streamed file writer (OPFS FileSystemWritableFileStream fits). */
export interface ModelFileWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** Where model folders live. `dir` '' is the root (settings file). */
export interface ModelStorage {
  listDirs(): Promise<string[]>;
  read(dir: string, name: string): Promise<Blob | null>;
  create(dir: string, name: string): Promise<ModelFileWriter>;
  removeDir(dir: string): Promise<void>;
}

export interface ModelManifest {
  id: string;
  profileId: string;
  source: 'download' | 'import';
  repo?: string;
  files: Record<string, number>;
  sizeBytes: number;
  /** SHA-256 (hex) of model.safetensors: part of the vector version. */
  sha256: string;
  dim: number;
  layers: number;
  installedAt: number;
}

export interface LoadedModelFiles {
  manifest: ModelManifest;
  config: BertConfig;
  tokenizer: WordPieceTokenizer;
  /** tokenizer.json as stored, for a reference runtime that parses it itself. */
  tokenizerJson: string;
  weights: ArrayBuffer;
}

export interface ModelStoreDeps {
  storage: ModelStorage;
  fetch?: typeof fetch;
  /** navigator.storage.estimate; without it the quota is not checked. */
  estimate?: () => Promise<{ quota?: number; usage?: number }>;
  /** navigator.onLine; a fetch that fails while this is false reports OFFLINE. */
  online?: () => boolean;
  now?: () => number;
}

export interface DownloadOptions {
  baseUrl?: string;
  signal?: AbortSignal;
  onProgress?: (p: ModelTransferProgress) => void;
}

export interface ModelStore {
  list(): Promise<ModelManifest[]>;
  catalogue(): CatalogueEntry[];
  /** @throws AppError QUOTA_INSUFFICIENT, OFFLINE, MODEL_LOAD_FAILED, ABORTED, INVALID_ARGUMENT */
  download(profileId: string, options?: DownloadOptions): Promise<ModelManifest>;
  /** @throws AppError MODEL_LOAD_FAILED, QUOTA_INSUFFICIENT, INVALID_ARGUMENT */
  importFiles(
    profileId: string,
    files: Array<{ name: string; data: Blob }>,
  ): Promise<ModelManifest>;
  /** @throws AppError NOT_FOUND */
  remove(id: string): Promise<void>;
  /** Reads and re-validates a stored model (SHA-256 checked). @throws NOT_FOUND, MODEL_LOAD_FAILED */
  load(id: string): Promise<LoadedModelFiles>;
  getActiveId(): Promise<string | null>;
  setActiveId(id: string): Promise<void>;
}

export const DEFAULT_HUB = 'https://huggingface.co';
/** Free space to keep beyond the model itself (SQLite, caches): 10% + 32 MB. */
export function quotaNeeded(bytes: number): number {
  return Math.ceil(bytes * 1.1) + 32 * 1024 * 1024;
}
const MANIFEST = 'manifest.json';
const SETTINGS = 'settings.json';

export async function sha256HexOf(data: ArrayBuffer): Promise<string> {
  const d = await globalThis.crypto.subtle.digest('SHA-256', data);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createModelStore(deps: ModelStoreDeps): ModelStore {
  const { storage } = deps;
  const doFetch = deps.fetch ?? ((u: RequestInfo | URL, i?: RequestInit) => fetch(u, i));
  const now = deps.now ?? (() => Date.now());

  function profileOf(profileId: string) {
    const p = BERT_PROFILES[profileId];
    const c = BERT_CATALOGUE[profileId];
    if (!p || !c) {
      throw createError('INVALID_ARGUMENT', {
        reason: `Unknown model ${profileId}; choose one of ${Object.keys(BERT_PROFILES).join(', ')}.`,
      });
    }
    return { p, c };
  }

  async function readManifest(dir: string): Promise<ModelManifest | null> {
    const blob = await storage.read(dir, MANIFEST);
    if (!blob) return null;
    try {
      return JSON.parse(await blob.text()) as ModelManifest;
    } catch {
      return null;
    }
  }

  async function writeJson(dir: string, name: string, value: unknown): Promise<void> {
    const w = await storage.create(dir, name);
    await w.write(new TextEncoder().encode(JSON.stringify(value)));
    await w.close();
  }

  async function checkQuota(bytes: number): Promise<void> {
    if (!deps.estimate) return;
    const { quota, usage } = await deps.estimate();
    if (quota === undefined) return;
    const free = quota - (usage ?? 0);
    const need = quotaNeeded(bytes);
    if (free < need) {
      throw createError('QUOTA_INSUFFICIENT', {
        reason: `This model needs about ${formatBytes(need)} of storage (with room to spare) but only ${formatBytes(free)} is free for Sift. Free space or choose a smaller model.`,
      });
    }
  }

  async function assertNotInstalled(id: string): Promise<void> {
    if (await readManifest(id)) {
      throw createError('INVALID_ARGUMENT', {
        reason: `${id} is already installed. Delete it first to download or import it again.`,
      });
    }
  }

  /** Validates the stored files of `id` and writes its manifest (the install's commit point). */
  async function finish(
    id: string,
    source: ModelManifest['source'],
    repo: string | undefined,
  ): Promise<ModelManifest> {
    const blobs: Partial<Record<BertFileName, Blob>> = {};
    for (const name of BERT_FILES) {
      const b = await storage.read(id, name);
      if (b) blobs[name] = b;
    }
    const { config } = await validateBertFiles(blobs);
    const sha256 = await sha256HexOf(await blobs['model.safetensors']!.arrayBuffer());
    const files = Object.fromEntries(BERT_FILES.map((n) => [n, blobs[n]!.size]));
    const manifest: ModelManifest = {
      id,
      profileId: id,
      source,
      ...(repo ? { repo } : {}),
      files,
      sizeBytes: Object.values(files).reduce((a, b) => a + b, 0),
      sha256,
      dim: config.hidden_size,
      layers: config.num_hidden_layers,
      installedAt: now(),
    };
    await writeJson(id, MANIFEST, manifest);
    return manifest;
  }

  async function cleanUp(id: string): Promise<void> {
    try {
      await storage.removeDir(id);
    } catch {
      // Nothing was written yet, or the folder is already gone.
    }
  }

  function fetchError(cause: unknown, url: string, signal?: AbortSignal) {
    if (signal?.aborted || (cause instanceof DOMException && cause.name === 'AbortError')) {
      return createError('ABORTED');
    }
    if (isAppError(cause)) return cause;
    const host = (() => {
      try {
        return new URL(url).host;
      } catch {
        return url;
      }
    })();
    return createError('OFFLINE', {
      reason: `Could not reach ${host}${deps.online && !deps.online() ? ' (this device is offline)' : ''}. Connect to the internet and retry, or import the model from a folder.`,
      cause,
    });
  }

  return {
    async list() {
      const out: ModelManifest[] = [];
      for (const dir of await storage.listDirs()) {
        const m = await readManifest(dir);
        if (m && BERT_PROFILES[m.profileId]) out.push(m);
      }
      return out.sort((a, b) => a.id.localeCompare(b.id));
    },

    catalogue: bertCatalogue,

    async download(profileId, options = {}) {
      const { c } = profileOf(profileId);
      const id = profileId;
      await assertNotInstalled(id);
      const { signal, onProgress } = options;
      const base = (options.baseUrl ?? DEFAULT_HUB).replace(/\/+$/, '');
      onProgress?.({ phase: 'checking', file: '', loaded: 0, total: c.sizeBytes });
      await checkQuota(c.sizeBytes);
      // Expected sizes until each response's Content-Length is known.
      const expected: Record<string, number> = {
        'config.json': 1_000,
        'tokenizer.json': 712_000,
        'model.safetensors': Math.max(0, c.sizeBytes - 713_000),
      };
      const total = () => Object.values(expected).reduce((a, b) => a + b, 0);
      let loaded = 0;
      await cleanUp(id); // leftovers of an interrupted download
      try {
        for (const name of BERT_FILES) {
          if (signal?.aborted) throw createError('ABORTED');
          const url = `${base}/${c.repo}/resolve/main/${name}`;
          let res: Response;
          try {
            res = await doFetch(url, signal ? { signal } : {});
          } catch (cause) {
            throw fetchError(cause, url, signal);
          }
          if (!res.ok) {
            throw createError('MODEL_LOAD_FAILED', {
              reason:
                res.status === 404
                  ? `${name} was not found at ${url} (HTTP 404). Check the hub address, or import the model from a folder.`
                  : `Downloading ${name} failed (HTTP ${res.status}). Retry later, or import the model from a folder.`,
            });
          }
          const length = Number(res.headers.get('content-length') ?? NaN);
          if (Number.isFinite(length) && length >= 0) expected[name] = length;
          const writer = await storage.create(id, name);
          let fileBytes = 0;
          try {
            if (!res.body) throw new Error('no body');
            const reader = res.body.getReader();
            for (;;) {
              let chunk: ReadableStreamReadResult<Uint8Array>;
              try {
                chunk = await reader.read();
              } catch (cause) {
                throw fetchError(cause, url, signal);
              }
              if (chunk.done) break;
              if (signal?.aborted) throw createError('ABORTED');
              await writer.write(chunk.value);
              fileBytes += chunk.value.byteLength;
              loaded += chunk.value.byteLength;
              onProgress?.({
                phase: 'downloading',
                file: name,
                loaded,
                total: Math.max(total(), loaded),
              });
            }
            await writer.close();
          } catch (err) {
            await writer.abort().catch(() => undefined);
            throw isAppError(err) ? err : fetchError(err, url, signal);
          }
          expected[name] = fileBytes;
        }
        onProgress?.({ phase: 'validating', file: '', loaded, total: loaded });
        const manifest = await finish(id, 'download', c.repo);
        onProgress?.({ phase: 'done', file: '', loaded, total: loaded });
        return manifest;
      } catch (err) {
        await cleanUp(id);
        throw err;
      }
    },

    async importFiles(profileId, files) {
      profileOf(profileId);
      const id = profileId;
      await assertNotInstalled(id);
      // A picked folder lists paths like "all-MiniLM-L6-v2/config.json", in any order, and a
      // sentence-transformers folder has a 1_Pooling/config.json too: pickBertFiles decides.
      const found = pickBertFiles(files);
      if ('missing' in found) {
        throw createError('MODEL_LOAD_FAILED', {
          reason: `The folder has no ${found.missing.join(', ')}. Pick the folder that contains ${BERT_FILES.join(', ')}.`,
        });
      }
      const picked = found.picked;
      // Validate before copying anything.
      await validateBertFiles(picked);
      await checkQuota(BERT_FILES.reduce((a, n) => a + picked[n].size, 0));
      await cleanUp(id);
      try {
        for (const name of BERT_FILES) {
          const w = await storage.create(id, name);
          try {
            const reader = picked[name].stream().getReader();
            for (;;) {
              const r = await reader.read();
              if (r.done) break;
              await w.write(r.value);
            }
            await w.close();
          } catch (err) {
            await w.abort().catch(() => undefined);
            throw err;
          }
        }
        return await finish(id, 'import', undefined);
      } catch (err) {
        await cleanUp(id);
        throw err;
      }
    },

    async remove(id) {
      if (!(await readManifest(id))) {
        throw createError('NOT_FOUND', { reason: `Model ${id} is not installed.` });
      }
      await storage.removeDir(id);
      if ((await this.getActiveId()) === id) await this.setActiveId('use-lite');
    },

    async load(id) {
      const manifest = await readManifest(id);
      if (!manifest) throw createError('NOT_FOUND', { reason: `Model ${id} is not installed.` });
      const blobs: Partial<Record<BertFileName, Blob>> = {};
      for (const name of BERT_FILES) {
        const b = await storage.read(id, name);
        if (b) blobs[name] = b;
      }
      const { config, tokenizer } = await validateBertFiles(blobs);
      const weights = await blobs['model.safetensors']!.arrayBuffer();
      if ((await sha256HexOf(weights)) !== manifest.sha256) {
        throw createError('MODEL_LOAD_FAILED', {
          reason: `The stored weights of ${id} changed since they were installed. Delete the model and download or import it again.`,
        });
      }
      const tokenizerJson = await blobs['tokenizer.json']!.text();
      return { manifest, config, tokenizer, tokenizerJson, weights };
    },

    async getActiveId() {
      const blob = await storage.read('', SETTINGS);
      if (!blob) return null;
      try {
        const v = (JSON.parse(await blob.text()) as { activeModel?: unknown }).activeModel;
        return typeof v === 'string' ? v : null;
      } catch {
        return null;
      }
    },

    async setActiveId(id) {
      await writeJson('', SETTINGS, { activeModel: id });
    },
  };
}

/** In-memory storage (tests, and browsers without OPFS: models then last one session). */
export function createMemoryStorage(): ModelStorage & { files: Map<string, Blob> } {
  const files = new Map<string, Blob>();
  const key = (dir: string, name: string) => `${dir}/${name}`;
  return {
    files,
    async listDirs() {
      const dirs = new Set<string>();
      for (const k of files.keys()) {
        const dir = k.slice(0, k.indexOf('/'));
        if (dir) dirs.add(dir);
      }
      return [...dirs];
    },
    async read(dir, name) {
      return files.get(key(dir, name)) ?? null;
    },
    async create(dir, name) {
      const parts: Uint8Array[] = [];
      return {
        async write(chunk) {
          parts.push(chunk.slice());
        },
        async close() {
          files.set(key(dir, name), new Blob(parts as BlobPart[]));
        },
        async abort() {
          parts.length = 0;
        },
      };
    },
    async removeDir(dir) {
      for (const k of [...files.keys()]) if (k.startsWith(`${dir}/`)) files.delete(k);
    },
  };
}

/** Storage in the origin private file system under `root` (e.g. OPFS models/). */
export function createOpfsStorage(root: () => Promise<FileSystemDirectoryHandle>): ModelStorage {
  const dirOf = async (dir: string, create: boolean) =>
    dir ? (await root()).getDirectoryHandle(dir, { create }) : root();
  return {
    async listDirs() {
      const out: string[] = [];
      const r = (await root()) as FileSystemDirectoryHandle & {
        entries(): AsyncIterable<[string, FileSystemHandle]>;
      };
      for await (const [name, h] of r.entries()) if (h.kind === 'directory') out.push(name);
      return out;
    },
    async read(dir, name) {
      try {
        return await (await (await dirOf(dir, false)).getFileHandle(name)).getFile();
      } catch {
        return null;
      }
    },
    async create(dir, name) {
      const fh = await (await dirOf(dir, true)).getFileHandle(name, { create: true });
      const w = await fh.createWritable();
      return {
        write: (chunk) => w.write(chunk as Uint8Array<ArrayBuffer>),
        close: () => w.close(),
        abort: () => w.abort(),
      };
    },
    async removeDir(dir) {
      await (await root()).removeEntry(dir, { recursive: true });
    },
  };
}

/** The downloadable models with their hub repos and sizes (pure data; needs no storage). */
export function bertCatalogue(): CatalogueEntry[] {
  return Object.keys(BERT_CATALOGUE).map((id) => {
    const c = BERT_CATALOGUE[id]!;
    return {
      id,
      label: c.label,
      repo: c.repo,
      profile: profileInfo(id),
      dim: c.dim,
      sizeBytes: c.sizeBytes,
      sizeApproximate: c.sizeApproximate,
      ...(c.scifactNdcg10 !== undefined ? { scifactNdcg10: c.scifactNdcg10 } : {}),
      description: c.description,
    };
  });
}
