import type { ChatMessage, MessageImage } from '../../models/chat-message.ts';
import type { ChatModel } from '../../models/chat-model.ts';
import { formatBytes, mediaType } from '../../models/message-images.ts';
import { SafeFetchError, safeFetch, type SafeFetchOptions } from '../../tools/safe-fetch.ts';
import { ApiError } from '../api-error.ts';

/** The most a linked picture may hold when the service fetches it: OpenAI's own limit per image. */
const MAX_IMAGE_BYTES = 20_000_000;

/**
 * Makes a request's pictures fit the model, before its turn: a model that cannot see gets a 400
 * naming it and the setting (`model_options.vision`); links to pictures are passed on to an API that
 * fetches them itself, and fetched here (the package's safe fetch: public addresses only, under
 * MAX_IMAGE_BYTES) for one that does not. `at` names the request's first picture, for the 400.
 */
export async function imagesForModel(
  messages: readonly ChatMessage[],
  model: ChatModel,
  at: string,
  options: Pick<SafeFetchOptions, 'signal' | 'allowPrivate' | 'allowHosts' | 'hosts'> = {},
): Promise<ChatMessage[]> {
  if (model.vision !== true)
    throw new ApiError(
      400,
      'model-without-vision',
      `${at} is a picture, and the model ${model.id} does not take images. Use a model that does, or set model_options.vision: true in riverse.yaml if this one can (its provider's defaults: decision 029).`,
      at,
    );
  const types = model.imageTypes;
  for (const message of messages)
    for (const image of message.role === 'user' ? (message.images ?? []) : [])
      if (image.type === 'image' && types !== undefined && !types.includes(mediaType(image)))
        throw new ApiError(
          400,
          'invalid-request',
          `A picture of type ${image.mimeType} is in the messages, and the model ${model.id} takes only ${types.join(', ')}: convert it to one of them.`,
          'messages',
        );
  if (model.imageUrls === true) return [...messages];
  const out: ChatMessage[] = [];
  for (const message of messages) {
    if (message.role !== 'user' || !message.images?.some((image) => image.type === 'image-url')) {
      out.push(message);
      continue;
    }
    const images: MessageImage[] = [];
    for (const image of message.images)
      images.push(image.type === 'image-url' ? await fetchImage(image.url, image.detail, types, options) : image);
    out.push({ ...message, images });
  }
  return out;
}

async function fetchImage(
  url: string,
  detail: string | undefined,
  types: readonly string[] | undefined,
  options: Pick<SafeFetchOptions, 'signal' | 'allowPrivate' | 'allowHosts' | 'hosts'>,
): Promise<MessageImage> {
  const cannot = (why: string) =>
    new ApiError(
      400,
      'invalid-request',
      `The picture at ${url.slice(0, 200)} could not be fetched for the model, whose API takes no links: ${why}`,
      'messages',
    );
  let response: Awaited<ReturnType<typeof safeFetch>>;
  try {
    response = await safeFetch(url, { ...options, maxBytes: MAX_IMAGE_BYTES, headers: { accept: 'image/*' } });
  } catch (error) {
    if (error instanceof SafeFetchError) throw cannot(error.message);
    throw error;
  }
  if (response.status < 200 || response.status > 299)
    throw cannot(`the server answered ${response.status} ${response.statusText}.`);
  if (response.truncated)
    throw cannot(`it is over ${formatBytes(MAX_IMAGE_BYTES)}, the most taken; send it as a data: URL made smaller.`);
  const type = String(response.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (!type.startsWith('image/')) throw cannot(`it is ${type === '' ? 'of no stated type' : type}, not an image.`);
  if (types !== undefined && !types.includes(type === 'image/jpg' ? 'image/jpeg' : type))
    throw cannot(`it is ${type}, and the model takes only ${types.join(', ')}.`);
  // The fetched bytes as they are: the adapter encodes them once, into its request.
  return { type: 'image', data: response.body, mimeType: type, ...(detail === undefined ? {} : { detail }) };
}
