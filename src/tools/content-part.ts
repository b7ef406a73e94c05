/**
 * A piece of a tool's result beyond its text, named as MCP names its content blocks so that the
 * mapping is one-to-one. Bytes (`data`, `blob`) are base64 text or a `Uint8Array`.
 */
export type ContentPart = TextPart | ImagePart | AudioPart | ResourcePart;

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ImagePart {
  type: 'image';
  /** The image's bytes: base64 text or a `Uint8Array`. */
  data: string | Uint8Array;
  /** `image/png`, `image/jpeg`, … */
  mimeType: string;
}

export interface AudioPart {
  type: 'audio';
  /** The sound's bytes: base64 text or a `Uint8Array`. */
  data: string | Uint8Array;
  /** `audio/wav`, `audio/mpeg`, … */
  mimeType: string;
}

/** A file or document the result points at or carries: `text` for text, `blob` for bytes. */
export interface ResourcePart {
  type: 'resource';
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string | Uint8Array;
}
