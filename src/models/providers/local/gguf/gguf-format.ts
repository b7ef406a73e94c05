// The parts of the GGUF file format (v3) that the tiny-model writer and reader share.
// Spec: ggml's docs/gguf.md. Everything is little-endian.

/** "GGUF" read as a little-endian uint32. */
export const GGUF_MAGIC = 0x46554747;
export const GGUF_VERSION = 3;
/** Where tensor data starts and each tensor begins: a multiple of this (`general.alignment`). */
export const GGUF_ALIGNMENT = 32;

/** Metadata value types. */
export const GgufType = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;
export type GgufType = (typeof GgufType)[keyof typeof GgufType];

/** ggml tensor types; only F32 is written here. */
export const GGML_TYPE_F32 = 0;

/** A metadata value with the type it is stored as; arrays hold one item type. */
export type GgufValue =
  | { type: 'uint32'; value: number }
  | { type: 'int32'; value: number }
  | { type: 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'float32[]'; value: readonly number[] }
  | { type: 'int32[]'; value: readonly number[] };

/** SentencePiece token types, as `tokenizer.ggml.token_type` stores them. */
export const TokenType = { normal: 1, unknown: 2, control: 3, userDefined: 4, unused: 5, byte: 6 } as const;
