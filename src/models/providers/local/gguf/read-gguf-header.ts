import { GGUF_ALIGNMENT, GGUF_MAGIC, GgufType } from './gguf-format.ts';

type GgufMetadataValue = string | number | bigint | boolean | GgufMetadataValue[];

interface GgufTensorInfo {
  name: string;
  /** ggml order: ne0 first. */
  shape: number[];
  type: number;
  /** From the start of the tensor data. */
  offset: number;
}

export interface GgufHeader {
  version: number;
  metadata: Map<string, GgufMetadataValue>;
  tensors: GgufTensorInfo[];
  /** Where tensor data starts in the file. */
  dataOffset: number;
}

/** The header of a GGUF file (v2 or v3): metadata and tensor infos, without reading tensor data. */
export function readGgufHeader(bytes: Uint8Array): GgufHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let at = 0;
  const take = (size: number): number => {
    if (at + size > bytes.length) throw new RangeError(`GGUF: the file ends inside its header (at byte ${at})`);
    const start = at;
    at += size;
    return start;
  };
  const u32 = () => view.getUint32(take(4), true);
  const u64 = () => Number(view.getBigUint64(take(8), true));
  const string = () => {
    const length = u64();
    const start = take(length);
    return decoder.decode(bytes.subarray(start, start + length));
  };
  const value = (type: number): GgufMetadataValue => {
    switch (type) {
      case GgufType.uint8:
        return view.getUint8(take(1));
      case GgufType.int8:
        return view.getInt8(take(1));
      case GgufType.uint16:
        return view.getUint16(take(2), true);
      case GgufType.int16:
        return view.getInt16(take(2), true);
      case GgufType.uint32:
        return u32();
      case GgufType.int32:
        return view.getInt32(take(4), true);
      case GgufType.float32:
        return view.getFloat32(take(4), true);
      case GgufType.bool:
        return view.getUint8(take(1)) !== 0;
      case GgufType.string:
        return string();
      case GgufType.uint64:
        return view.getBigUint64(take(8), true);
      case GgufType.int64:
        return view.getBigInt64(take(8), true);
      case GgufType.float64:
        return view.getFloat64(take(8), true);
      case GgufType.array: {
        const itemType = u32();
        const count = u64();
        const items: GgufMetadataValue[] = [];
        for (let i = 0; i < count; i++) items.push(value(itemType));
        return items;
      }
      default:
        throw new RangeError(`GGUF: unknown metadata type ${type} at byte ${at - 4}`);
    }
  };

  if (u32() !== GGUF_MAGIC) throw new RangeError('GGUF: not a GGUF file (bad magic)');
  const version = u32();
  if (version !== 2 && version !== 3) throw new RangeError(`GGUF: unsupported version ${version}`);
  const tensorCount = u64();
  const metadataCount = u64();
  const metadata = new Map<string, GgufMetadataValue>();
  for (let i = 0; i < metadataCount; i++) {
    const key = string();
    metadata.set(key, value(u32()));
  }
  const tensors: GgufTensorInfo[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = string();
    const dimensions = u32();
    const shape: number[] = [];
    for (let d = 0; d < dimensions; d++) shape.push(u64());
    tensors.push({ name, shape, type: u32(), offset: u64() });
  }
  const alignment = Number(metadata.get('general.alignment') ?? GGUF_ALIGNMENT);
  return { version, metadata, tensors, dataOffset: Math.ceil(at / alignment) * alignment };
}
