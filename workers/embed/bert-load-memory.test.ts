// Who owns the weights while a BERT model loads (issue 13, embed-worker memory): safetensors
// F32 tensors are views on the file's own bytes (no parsed copy, no slice of a Node Buffer), and a
// loaded model keeps none of them, so the file can be collected once the runtime holds its copy.
// The collection is observed with a WeakRef and V8's gc (enabled for this file only).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { loadBert, type BertModel } from './bert';
import { parseBertConfig, parseWordPieceTokenizer } from './bert-files';
import { BERT_PROFILES } from './model-profiles';
import { createNodeKernel } from './node-kernel';
import { parseSafetensors } from './safetensors';
import { bertFolder } from './bert-weights.testkit';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Collects until `ref` is gone or a few rounds pass (WeakRef targets survive the current job). */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 5 && ref.deref() !== undefined; i++) {
    await new Promise((r) => setTimeout(r, 0));
    gc();
  }
  return ref.deref() === undefined;
}

const folder = bertFolder(21);
const td = new TextDecoder();

/**
 * The seeded file with its JSON header padded with spaces to a multiple of 8, as the safetensors
 * library writes real files (so every F32 tensor starts 4-byte aligned).
 */
function padded(file: Uint8Array): Uint8Array {
  const len = Number(new DataView(file.buffer, file.byteOffset).getBigUint64(0, true));
  const pad = (8 - ((8 + len) % 8)) % 8;
  const out = new Uint8Array(file.length + pad);
  new DataView(out.buffer).setBigUint64(0, BigInt(len + pad), true);
  out.set(file.subarray(8, 8 + len), 8);
  out.fill(0x20, 8 + len, 8 + len + pad);
  out.set(file.subarray(8 + len), 8 + len + pad);
  return out;
}
const aligned = padded(folder['model.safetensors']);

describe('safetensors views', () => {
  it('gives aligned F32 tensors as views on the file, equal to a little-endian read', () => {
    const file = aligned;
    const tensors = parseSafetensors(file);
    const t = tensors.get('embeddings.LayerNorm.weight')!;
    expect(t.data.buffer).toBe(file.buffer);
    const header = JSON.parse(
      td.decode(file.subarray(8, 8 + Number(new DataView(file.buffer).getBigUint64(0, true)))),
    ) as Record<string, { data_offsets: [number, number] }>;
    const len = Number(new DataView(file.buffer).getBigUint64(0, true));
    const [begin] = header['embeddings.LayerNorm.weight']!.data_offsets;
    const dv = new DataView(file.buffer, 8 + len + begin);
    expect(Array.from(t.data)).toEqual(Array.from(t.data, (_, i) => dv.getFloat32(i * 4, true)));
  });

  it('reads a file that starts inside a larger buffer (a Node Buffer), unaligned too', () => {
    const file = aligned;
    const reference = parseSafetensors(file);
    for (const shift of [8, 3]) {
      const big = new Uint8Array(file.length + shift + 5);
      big.set(file, shift);
      const tensors = parseSafetensors(big.subarray(shift, shift + file.length));
      expect([...tensors.keys()]).toEqual([...reference.keys()]);
      for (const [name, t] of reference) {
        const u = tensors.get(name)!;
        expect(u.shape).toEqual(t.shape);
        const bytes = (x: Float32Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
        expect(Buffer.compare(bytes(u.data), bytes(t.data))).toBe(0);
        // A view where the offset allows one, a copy where it does not.
        expect(u.data.buffer === big.buffer).toBe(shift % 4 === 0);
      }
    }
  });
});

describe('loadBert ownership', () => {
  it('keeps no reference to the weights file once loaded', async () => {
    const kernel = await createNodeKernel();
    let model: BertModel | null = null;
    let ref: WeakRef<ArrayBufferLike> | null = null;
    // In a function of its own so the test's scope holds no strong reference to the file.
    const load = () => {
      const file = aligned.slice(); // a buffer only this load holds
      ref = new WeakRef(file.buffer);
      model = loadBert(
        kernel,
        parseBertConfig(td.decode(folder['config.json'])),
        parseSafetensors(file),
        parseWordPieceTokenizer(td.decode(folder['tokenizer.json'])),
        { ...BERT_PROFILES['all-MiniLM-L6-v2']!, version: 'x' },
      );
    };
    load();
    const before = model!.embedPassageInt16('Cells divide by mitosis.');
    expect(await collected(ref!)).toBe(true);
    // The model still works (its weights live in the runtime's memory) and gives the same bytes.
    expect(model!.embedPassageInt16('Cells divide by mitosis.')).toEqual(before);
  });
});
