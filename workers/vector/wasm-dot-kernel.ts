// Adapter from the WASM SIMD runtime (workers/embed/kernel.ts, i32x4.dot_i16x8_s) to the
// DotKernel seam. The index keeps its rows in JS typed arrays, so each call copies the query
// and the rows it needs into a scratch area of the runtime's memory, then runs one dotI16Many:
// one boundary crossing per expanded graph node. Integer results equal jsDotKernel's exactly.
// The runtime is passed in, typed structurally here.
import type { DotKernel } from './types';

/** The part of workers/embed/kernel.ts `Kernel` this adapter uses. */
export interface I16DotRuntime {
  alloc(bytes: number): number;
  i16(ptr: number, length: number): Int16Array;
  i32(ptr: number, length: number): Int32Array;
  dotI16Many(query: number, matrix: number, count: number, n: number, scores: number): void;
}

/**
 * Give it a runtime instance of its own (or at least scratch that nobody `release`s): the
 * scratch is allocated once per (dim, batch size) and reused for every call.
 */
export function createWasmDotKernel(rt: I16DotRuntime): DotKernel {
  let dim = 0;
  let cap = 0;
  let qPtr = 0;
  let mPtr = 0;
  let sPtr = 0;
  // Views are cached; a view whose memory grew (detached) reads as length 0 and is re-made.
  let qView: Int16Array = new Int16Array(0);
  let mView: Int16Array = new Int16Array(0);
  let sView: Int32Array = new Int32Array(0);
  function views(): void {
    if (qView.length === 0 || mView.length === 0 || sView.length === 0) {
      qView = rt.i16(qPtr, dim);
      mView = rt.i16(mPtr, cap * dim);
      sView = rt.i32(sPtr, cap);
    }
  }

  function ensure(d: number, rows: number): void {
    if (d === dim && rows <= cap) return;
    const c = Math.max(rows, cap, 64);
    qPtr = rt.alloc(d * 2 + 16);
    mPtr = rt.alloc(c * d * 2 + 16);
    sPtr = rt.alloc(c * 4 + 16);
    // v128 loads are unaligned-safe, but keep 16-byte alignment for speed.
    qPtr = (qPtr + 15) & ~15;
    mPtr = (mPtr + 15) & ~15;
    sPtr = (sPtr + 15) & ~15;
    dim = d;
    cap = c;
    qView = rt.i16(qPtr, dim);
    mView = rt.i16(mPtr, cap * dim);
    sView = rt.i32(sPtr, cap);
  }

  return {
    dot(a, aOff, b, bOff, d) {
      ensure(d, 1);
      views();
      qView.set(a.subarray(aOff, aOff + d));
      mView.set(b.subarray(bOff, bOff + d));
      rt.dotI16Many(qPtr, mPtr, 1, d, sPtr);
      return sView[0]!;
    },
    dotBatch(query, qOff, rows, slots, count, d, out) {
      if (count === 0) return;
      ensure(d, count);
      views();
      qView.set(query.subarray(qOff, qOff + d));
      const m = mView;
      for (let j = 0; j < count; j++) {
        const off = slots[j]! * d;
        m.set(rows.subarray(off, off + d), j * d);
      }
      rt.dotI16Many(qPtr, mPtr, count, d, sPtr);
      out.set(sView.subarray(0, count));
    },
  };
}
