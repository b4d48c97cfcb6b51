// A minimal ONNX model writer: encodes a graph of nodes, initializers and typed inputs/outputs as
// the ONNX protobuf (onnx.proto3 field numbers) without a protobuf library. Only what
// bert-onnx.ts needs: float and int64 tensors (raw little-endian data), int/float/ints attributes,
// symbolic dimensions. Parts are collected as byte arrays and joined once, so a 100 MB model is
// copied once. Must not import Node modules.

export type OnnxElemType = 'float' | 'int64';

export interface OnnxTensor {
  name: string;
  dims: number[];
  type: OnnxElemType;
  data: Float32Array | BigInt64Array;
}

/** Attribute values say their ONNX type explicitly (1 and 1.0 are different attributes). */
export type OnnxAttr = { i: number } | { f: number } | { ints: number[] };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs?: Record<string, OnnxAttr>;
}

export interface OnnxValueInfo {
  name: string;
  type: OnnxElemType;
  /** A number is a fixed size; a string is a symbolic one (e.g. 'batch'). */
  shape: Array<number | string>;
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
}

const ELEM = { float: 1, int64: 7 } as const;
/** AttributeProto.AttributeType */
const ATTR_TYPE = { f: 1, i: 2, ints: 7 } as const;

/** A protobuf message under construction: its parts and their total length. */
class Message {
  readonly parts: Uint8Array[] = [];
  length = 0;

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  private tag(field: number, wire: number): void {
    this.push(varint(BigInt(field * 8 + wire)));
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, 0);
    // Negative int64 values are ten-byte two's complement varints.
    this.push(varint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.push(varint(BigInt(value.length)));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, m: Message): this {
    this.tag(field, 2);
    this.push(varint(BigInt(m.length)));
    for (const p of m.parts) this.push(p);
    return this;
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

function varint(v: bigint): Uint8Array {
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Uint8Array.from(out);
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Little-endian bytes of a typed array, whatever the platform's byte order. */
function rawBytes(t: OnnxTensor): Uint8Array {
  // Every platform browsers run on is little-endian: view the weights instead of copying them
  // (a 90 MB model is then copied once, into the final buffer).
  if (LITTLE_ENDIAN) return new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const width = t.type === 'float' ? 4 : 8;
  const out = new Uint8Array(t.data.length * width);
  const view = new DataView(out.buffer);
  if (t.data instanceof Float32Array) {
    for (let i = 0; i < t.data.length; i++) view.setFloat32(i * 4, t.data[i]!, true);
  } else {
    for (let i = 0; i < t.data.length; i++) view.setBigInt64(i * 8, t.data[i]!, true);
  }
  return out;
}

function tensor(t: OnnxTensor): Message {
  const expected = t.dims.reduce((a, b) => a * b, 1);
  if (expected !== t.data.length) {
    throw new RangeError(
      `Tensor ${t.name} has ${t.data.length} values for dims ${t.dims.join(',')}.`,
    );
  }
  const m = new Message();
  for (const d of t.dims) m.int(1, d);
  m.int(2, ELEM[t.type]);
  m.string(8, t.name);
  m.bytes(9, rawBytes(t));
  return m;
}

function valueInfo(v: OnnxValueInfo): Message {
  const shape = new Message();
  for (const d of v.shape) {
    const dim = new Message();
    if (typeof d === 'number') dim.int(1, d);
    else dim.string(2, d);
    shape.message(1, dim);
  }
  const tensorType = new Message().int(1, ELEM[v.type]).message(2, shape);
  return new Message().string(1, v.name).message(2, new Message().message(1, tensorType));
}

function attribute(name: string, a: OnnxAttr): Message {
  const m = new Message().string(1, name);
  if ('f' in a) m.float(2, a.f).int(20, ATTR_TYPE.f);
  else if ('i' in a) m.int(3, a.i).int(20, ATTR_TYPE.i);
  else {
    for (const x of a.ints) m.int(8, x);
    m.int(20, ATTR_TYPE.ints);
  }
  return m;
}

function node(n: OnnxNode, index: number): Message {
  const m = new Message();
  for (const i of n.inputs) m.string(1, i);
  for (const o of n.outputs) m.string(2, o);
  m.string(3, `${n.op}_${index}`);
  m.string(4, n.op);
  for (const [k, v] of Object.entries(n.attrs ?? {})) m.message(5, attribute(k, v));
  return m;
}

/** The serialised ModelProto (IR version 8, default domain at `opset`). */
export function encodeOnnxModel(
  graph: OnnxGraph,
  options: { opset: number; producer: string },
): Uint8Array {
  const g = new Message();
  graph.nodes.forEach((n, i) => g.message(1, node(n, i)));
  g.string(2, graph.name);
  for (const t of graph.initializers) g.message(5, tensor(t));
  for (const v of graph.inputs) g.message(11, valueInfo(v));
  for (const v of graph.outputs) g.message(12, valueInfo(v));
  return new Message()
    .int(1, 8)
    .string(2, options.producer)
    .message(7, g)
    .message(8, new Message().string(1, '').int(2, options.opset))
    .toBytes();
}
