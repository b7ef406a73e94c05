import { GGML_TYPE_F32, GGUF_ALIGNMENT, GGUF_MAGIC, GGUF_VERSION, GgufType, type GgufValue } from './gguf-format.ts';

/** An F32 tensor; `shape` is in ggml order (ne0, the fastest-varying dimension, first). */
export interface F32Tensor {
  name: string;
  shape: readonly number[];
  data: Float32Array;
}

/** A whole GGUF v3 file: header, metadata, tensor infos, then the aligned tensor data. */
export function encodeGguf(metadata: ReadonlyMap<string, GgufValue>, tensors: readonly F32Tensor[]): Uint8Array {
  const out = new ByteWriter();
  out.u32(GGUF_MAGIC);
  out.u32(GGUF_VERSION);
  out.u64(tensors.length);
  out.u64(metadata.size);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    const elements = tensor.shape.reduce((a, b) => a * b, 1);
    if (elements !== tensor.data.length)
      throw new Error(
        `tensor ${tensor.name}: shape ${tensor.shape.join('×')} does not match ${tensor.data.length} values`,
      );
    out.string(tensor.name);
    out.u32(tensor.shape.length);
    for (const size of tensor.shape) out.u64(size);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offsets.push(offset);
    offset = align(offset + tensor.data.byteLength);
  }
  out.pad(align(out.length));
  const dataStart = out.length;
  for (const [index, tensor] of tensors.entries()) {
    out.pad(dataStart + offsets[index]!);
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  }
  out.pad(dataStart + offset);
  return out.result();
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case 'uint32':
      out.u32(GgufType.uint32);
      out.u32(value.value);
      return;
    case 'int32':
      out.u32(GgufType.int32);
      out.i32(value.value);
      return;
    case 'float32':
      out.u32(GgufType.float32);
      out.f32(value.value);
      return;
    case 'bool':
      out.u32(GgufType.bool);
      out.u8(value.value ? 1 : 0);
      return;
    case 'string':
      out.u32(GgufType.string);
      out.string(value.value);
      return;
    case 'string[]':
      out.u32(GgufType.array);
      out.u32(GgufType.string);
      out.u64(value.value.length);
      for (const item of value.value) out.string(item);
      return;
    case 'float32[]':
      out.u32(GgufType.array);
      out.u32(GgufType.float32);
      out.u64(value.value.length);
      for (const item of value.value) out.f32(item);
      return;
    case 'int32[]':
      out.u32(GgufType.array);
      out.u32(GgufType.int32);
      out.u64(value.value.length);
      for (const item of value.value) out.i32(item);
      return;
  }
}

function align(offset: number): number {
  return Math.ceil(offset / GGUF_ALIGNMENT) * GGUF_ALIGNMENT;
}

/** Little-endian bytes into a buffer that doubles as it fills. */
class ByteWriter {
  #buffer = new Uint8Array(1 << 16);
  #view = new DataView(this.#buffer.buffer);
  length = 0;

  #reserve(bytes: number): number {
    const at = this.length;
    if (at + bytes > this.#buffer.length) {
      const bigger = new Uint8Array(Math.max(this.#buffer.length * 2, at + bytes));
      bigger.set(this.#buffer.subarray(0, at));
      this.#buffer = bigger;
      this.#view = new DataView(bigger.buffer);
    }
    this.length += bytes;
    return at;
  }

  // Each reserves first: reserving may replace #buffer and #view.
  u8(value: number): void {
    const at = this.#reserve(1);
    this.#view.setUint8(at, value);
  }
  u32(value: number): void {
    const at = this.#reserve(4);
    this.#view.setUint32(at, value, true);
  }
  i32(value: number): void {
    const at = this.#reserve(4);
    this.#view.setInt32(at, value, true);
  }
  u64(value: number): void {
    const at = this.#reserve(8);
    this.#view.setBigUint64(at, BigInt(value), true);
  }
  f32(value: number): void {
    const at = this.#reserve(4);
    this.#view.setFloat32(at, value, true);
  }
  string(value: string): void {
    const encoded = new TextEncoder().encode(value);
    this.u64(encoded.length);
    this.bytes(encoded);
  }
  bytes(value: Uint8Array): void {
    const at = this.#reserve(value.length);
    this.#buffer.set(value, at);
  }
  /** Zeros up to `length`. */
  pad(length: number): void {
    if (length > this.length) this.#reserve(length - this.length); // new space is already zero
  }
  result(): Uint8Array {
    return this.#buffer.slice(0, this.length);
  }
}
