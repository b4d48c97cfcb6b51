// Minimal safetensors reader: an 8-byte little-endian header length, a JSON header of
// { name: { dtype, shape, data_offsets: [begin, end] } }, then the raw little-endian tensor bytes.
// Converts F16 / BF16 / I8 to Float32Array (exact; I8 keeps the raw integers, scaled by the
// caller); F32 tensors are views on the caller's bytes when
// aligned (no copy: the 87 MB of all-MiniLM-L6-v2 stay one copy until the runtime has its own).
// Must not import Node modules.
import { createError } from '../shared/errors';

export interface Tensor {
  shape: number[];
  /** I8 tensors hold their raw integers (exact in f32): the caller applies their scales. */
  data: Float32Array;
  /** The stored dtype (F32, F16, BF16 or I8). */
  dtype?: string;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/** Every WebAssembly host is little-endian; checked once so a view never reads swapped bytes. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Tensors of a safetensors file. An aligned F32 tensor's data is a view on `file` (not a copy):
 * it must not be written, and it keeps `file`'s buffer alive while referenced, so callers drop
 * the map once the weights are copied where they run. `file` may be a view on a larger buffer
 * (a Node Buffer): nothing is sliced.
 * @throws AppError MODEL_LOAD_FAILED when the file is not a readable safetensors file.
 */
export function parseSafetensors(file: ArrayBuffer | Uint8Array): Map<string, Tensor> {
  const fail = (reason: string) => createError('MODEL_LOAD_FAILED', { reason });
  const buffer = file instanceof Uint8Array ? file.buffer : file;
  const start = file instanceof Uint8Array ? file.byteOffset : 0;
  const length = file.byteLength;
  if (length < 8) throw fail('The weights file is too short to be safetensors.');
  const view = new DataView(buffer, start, length);
  const headerLen = Number(view.getBigUint64(0, true));
  if (headerLen > length - 8) throw fail('The safetensors header length is invalid.');
  let header: Record<string, HeaderEntry | Record<string, string>>;
  try {
    header = JSON.parse(
      new TextDecoder().decode(new Uint8Array(buffer, start + 8, headerLen)),
    ) as typeof header;
  } catch (cause) {
    throw createError('MODEL_LOAD_FAILED', {
      reason: 'The safetensors header is not JSON.',
      cause,
    });
  }
  const base = start + 8 + headerLen;
  const out = new Map<string, Tensor>();
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const entry = raw as HeaderEntry;
    const [begin, end] = entry.data_offsets;
    const count = entry.shape.reduce((a, b) => a * b, 1);
    if (base + end > start + length || begin > end)
      throw fail(`Tensor ${name} lies outside the file.`);
    const bytes = new DataView(buffer, base + begin, end - begin);
    if (
      entry.dtype === 'F32' &&
      end - begin === count * 4 &&
      LITTLE_ENDIAN &&
      (base + begin) % 4 === 0
    ) {
      out.set(name, {
        shape: entry.shape,
        data: new Float32Array(buffer, base + begin, count),
        dtype: 'F32',
      });
      continue;
    }
    const data = new Float32Array(count);
    if (entry.dtype === 'F32' && end - begin === count * 4) {
      for (let i = 0; i < count; i++) data[i] = bytes.getFloat32(i * 4, true);
    } else if (entry.dtype === 'F16' && end - begin === count * 2) {
      for (let i = 0; i < count; i++) data[i] = f16ToF32(bytes.getUint16(i * 2, true));
    } else if (entry.dtype === 'BF16' && end - begin === count * 2) {
      const u32 = new Uint32Array(1);
      const f32 = new Float32Array(u32.buffer);
      for (let i = 0; i < count; i++) {
        u32[0] = bytes.getUint16(i * 2, true) << 16;
        data[i] = f32[0]!;
      }
    } else if (entry.dtype === 'I8' && end - begin === count) {
      for (let i = 0; i < count; i++) data[i] = bytes.getInt8(i);
    } else {
      continue; // wider integer buffers (e.g. position_ids) are not weights
    }
    out.set(name, { shape: entry.shape, data, dtype: entry.dtype });
  }
  return out;
}

function f16ToF32(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}
