// Turns what the user picked or dropped (files, folders) into a flat list of ImportFile.
// Owns: folder walking for the File System Access API, directory inputs and drag and drop.
import type { ImportFile } from '../../workers/shared/types';

/** Names we never import from a folder walk: hidden files and OS clutter. */
function skipName(name: string): boolean {
  return name.startsWith('.') || name === 'Thumbs.db' || name === 'desktop.ini';
}

export function toImportFile(file: File, path?: string): ImportFile {
  return {
    path: path || (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
    name: file.name,
    size: file.size,
    modified: file.lastModified,
    type: file.type,
    data: file,
  };
}

export function fromFileList(list: FileList | File[]): ImportFile[] {
  return Array.from(list)
    .filter((f) => !skipName(f.name))
    .map((f) => toImportFile(f));
}

interface DirectoryHandleLike {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<FileSystemHandleLike>;
}
interface FileHandleLike {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}
type FileSystemHandleLike = DirectoryHandleLike | FileHandleLike;

/** Walks a directory handle from `showDirectoryPicker()` depth-first, in name order. */
export async function fromDirectoryHandle(root: DirectoryHandleLike): Promise<ImportFile[]> {
  const out: ImportFile[] = [];
  async function walk(dir: DirectoryHandleLike, prefix: string): Promise<void> {
    const entries: FileSystemHandleLike[] = [];
    for await (const entry of dir.values()) entries.push(entry);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (skipName(entry.name)) continue;
      const path = `${prefix}${entry.name}`;
      if (entry.kind === 'directory') await walk(entry, `${path}/`);
      else out.push(toImportFile(await entry.getFile(), path));
    }
  }
  await walk(root, `${root.name}/`);
  return out;
}

/** Whether the File System Access API's folder picker exists here. */
export function hasDirectoryPicker(): boolean {
  return (
    typeof (window as Window & { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function'
  );
}

export async function pickDirectory(): Promise<ImportFile[] | null> {
  const picker = (window as unknown as { showDirectoryPicker: () => Promise<DirectoryHandleLike> })
    .showDirectoryPicker;
  try {
    return await fromDirectoryHandle(await picker());
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return null; // user closed the picker
    throw err;
  }
}

/** Reads dropped items, descending into dropped folders (webkitGetAsEntry). */
export async function fromDataTransfer(dt: DataTransfer): Promise<ImportFile[]> {
  const entries = Array.from(dt.items)
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null))
    .filter((e): e is FileSystemEntry => e !== null);
  if (entries.length === 0) return fromFileList(dt.files);
  const out: ImportFile[] = [];
  for (const entry of entries) await walkEntry(entry, out);
  return out;
}

async function walkEntry(entry: FileSystemEntry, out: ImportFile[]): Promise<void> {
  if (skipName(entry.name)) return;
  const path = entry.fullPath.replace(/^\//, '');
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push(toImportFile(file, path));
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // readEntries returns results in batches until it returns an empty list.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    children.push(...batch);
  }
  children.sort((a, b) => a.name.localeCompare(b.name));
  for (const child of children) await walkEntry(child, out);
}
