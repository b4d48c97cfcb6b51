// The original bytes of imported PDFs, for the page view: one file per document text,
// `originals/<content sha256>.pdf` in OPFS (never in SQLite), pruned against the library's PDFs.
// Owns the size policy and the file naming; the directory itself is injected (OPFS or memory).
import { createError } from '../shared/errors';
import { formatBytes } from '../shared/format-bytes';

/**
 * 100 MB: past it a PDF is imported but its original is not kept (a note says so). Today's import
 * limit (50 MB) is lower, so the policy only bites if that limit is raised.
 */
export const ORIGINAL_MAX_BYTES = 100 * 1024 * 1024;

/** A flat folder of files; OPFS in the browser (createOpfsOriginalsDir), a Map in Node. */
export interface OriginalsDir {
  write(name: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  read(name: string): Promise<Uint8Array | null>;
  remove(name: string): Promise<void>;
  list(): Promise<Array<{ name: string; size: number }>>;
}

export interface Originals {
  /**
   * Keeps a PDF's bytes under its document's content hash (the same text keeps one copy).
   * @returns a note for the import report when the original is not kept (too large, write failed)
   */
  keep(contentHash: string, bytes: Uint8Array): Promise<string | null>;
  /** The kept bytes, or null (imported before originals were kept, or not kept). */
  read(contentHash: string): Promise<Uint8Array | null>;
  /** Removes every kept file whose hash is not in `live()` (deleted or replaced documents). */
  prune(live: () => Promise<Set<string>>): Promise<number>;
  usage(): Promise<{ files: number; bytes: number }>;
}

const NAME = /^([0-9a-f]{64})\.pdf$/;

function fileName(contentHash: string): string {
  if (!/^[0-9a-f]{64}$/.test(contentHash)) {
    throw createError('INVALID_ARGUMENT', {
      reason: `"${contentHash}" is not a SHA-256 hex digest.`,
    });
  }
  return `${contentHash}.pdf`;
}

export function createOriginals(deps: { dir: OriginalsDir; maxBytes?: number }): Originals {
  const { dir } = deps;
  const maxBytes = deps.maxBytes ?? ORIGINAL_MAX_BYTES;
  return {
    async keep(contentHash, bytes) {
      const name = fileName(contentHash);
      if (bytes.byteLength > maxBytes) {
        return `The original PDF (${formatBytes(bytes.byteLength)}) is not kept: past ${formatBytes(maxBytes)}, pages cannot be shown; its text is searchable as usual.`;
      }
      try {
        const existing = (await dir.list()).find((f) => f.name === name);
        if (existing?.size === bytes.byteLength) return null;
        await dir.write(name, bytes);
        return null;
      } catch (cause) {
        await dir.remove(name).catch(() => undefined); // never leave half a file behind
        const why = cause instanceof Error ? cause.message : String(cause);
        return `The original PDF could not be kept (${why}); pages cannot be shown. Free some storage and import it again.`;
      }
    },
    async read(contentHash) {
      return dir.read(fileName(contentHash));
    },
    async prune(live) {
      // List first, then ask which hashes live: a file written after the listing is not looked
      // at, and one in the listing was written after its document was committed.
      const files = await dir.list();
      const keep = await live();
      let removed = 0;
      for (const f of files) {
        const hash = NAME.exec(f.name)?.[1];
        if (hash && keep.has(hash)) continue;
        await dir.remove(f.name);
        removed++;
      }
      return removed;
    },
    async usage() {
      const files = await dir.list();
      return { files: files.length, bytes: files.reduce((n, f) => n + f.size, 0) };
    },
  };
}

/** An in-memory folder (Node, tests). */
export function createMemoryOriginalsDir(): OriginalsDir & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    async write(name, bytes) {
      files.set(name, bytes.slice());
    },
    async read(name) {
      return files.get(name)?.slice() ?? null;
    },
    async remove(name) {
      files.delete(name);
    },
    async list() {
      return [...files].map(([name, b]) => ({ name, size: b.byteLength }));
    },
  };
}

interface SyncHandle {
  truncate(size: number): void;
  write(buffer: Uint8Array, options?: { at: number }): number;
  flush(): void;
  close(): void;
}

/**
 * The `originals/` folder of the origin private file system. Writes go through a sync access
 * handle (dedicated workers, every browser with OPFS), else `createWritable`.
 */
export function createOpfsOriginalsDir(
  root: () => Promise<FileSystemDirectoryHandle>,
): OriginalsDir {
  let folder: Promise<FileSystemDirectoryHandle> | null = null;
  const open = () =>
    (folder ??= root().then((r) => r.getDirectoryHandle('originals', { create: true })));
  // The folder removed under us (site data cleared, another tab): open it afresh, once.
  const inFolder = async <T>(use: (dir: FileSystemDirectoryHandle) => Promise<T>): Promise<T> => {
    try {
      return await use(await open());
    } catch (err) {
      if ((err as { name?: string }).name !== 'NotFoundError') throw err;
      folder = null;
      return use(await open());
    }
  };
  return {
    async write(name, bytes) {
      const file = await inFolder((dir) => dir.getFileHandle(name, { create: true }));
      const sync = (file as { createSyncAccessHandle?: () => Promise<SyncHandle> })
        .createSyncAccessHandle;
      if (sync) {
        const handle = await sync.call(file);
        try {
          handle.truncate(0);
          let at = 0;
          while (at < bytes.byteLength) at += handle.write(bytes.subarray(at), { at });
          handle.flush();
        } finally {
          handle.close();
        }
        return;
      }
      const writable = await file.createWritable();
      await writable.write(bytes as Uint8Array<ArrayBuffer>);
      await writable.close();
    },
    async read(name) {
      try {
        const file = await (await open()).getFileHandle(name);
        return new Uint8Array(await (await file.getFile()).arrayBuffer());
      } catch (err) {
        if ((err as { name?: string }).name === 'NotFoundError') return null;
        throw err;
      }
    },
    async remove(name) {
      try {
        await (await open()).removeEntry(name);
      } catch (err) {
        if ((err as { name?: string }).name !== 'NotFoundError') throw err;
      }
    },
    async list() {
      return inFolder(async (folder) => {
        const out: Array<{ name: string; size: number }> = [];
        const dir = folder as FileSystemDirectoryHandle & {
          entries(): AsyncIterable<[string, FileSystemHandle]>;
        };
        for await (const [name, handle] of dir.entries()) {
          if (handle.kind !== 'file') continue;
          const size = (await (handle as FileSystemFileHandle).getFile()).size;
          out.push({ name, size });
        }
        return out;
      });
    },
  };
}
