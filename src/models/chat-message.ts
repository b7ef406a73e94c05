import type { ImagePart } from '../tools/content-part.ts';

/** A tool call as the model asked for it; `arguments` is the raw JSON text it sent. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
}

/** A picture a client linked to (`/v1`'s `image_url` with an http(s) URL): passed on, or fetched for a provider that takes no URLs. */
export interface ImageLink {
  type: 'image-url';
  url: string;
  /** OpenAI's `detail` (`auto`, `low`, `high`), kept for the OpenAI wire; other wires have none. */
  detail?: string;
}

/**
 * A picture in a message: bytes as a tool or a client gave them (base64 text or a Uint8Array, held
 * as given and encoded once, by the adapter that sends it), or a link. `detail` is a `/v1`
 * client's, kept for the OpenAI wire.
 */
export type MessageImage = (ImagePart & { detail?: string }) | ImageLink;

/**
 * The provider-neutral conversation every adapter translates to its own wire format. `content` is
 * always the text, so that what reads text keeps working; `images` are beside it, the same for a
 * person's message and a tool's result. Each adapter puts them where its API takes them.
 */
export type ChatMessage =
  | { role: 'user'; content: string; images?: MessageImage[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCallRequest[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean; images?: MessageImage[] };
