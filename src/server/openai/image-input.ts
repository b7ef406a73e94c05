import type { ChatMessage, MessageImage } from '../../models/chat-message.ts';
import type { ChatModel } from '../../models/chat-model.ts';
import { formatBytes, mediaType } from '../../models/message-images.ts';
import { SafeFetchError, safeFetch, type SafeFetchOptions } from '../../tools/safe-fetch.ts';
import { ApiError } from '../api-error.ts';

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * A picture a request gives by URL (chat completions' `image_url.url`, a Responses `input_image`'s
 * `image_url`): a `data:` URL becomes the image's base64 text, kept as it came (decoded by no one on
 * its way to the model); an http(s) link is kept for the model's API to fetch, or imagesForModel.
 * `at` names the field in a 400; `shape` is the part as expected.
 */
export function imageFromUrl(url: string, detail: string | undefined, at: string, shape: string): MessageImage {
  if (url.startsWith('data:')) {
    const match = DATA_URL.exec(url);
    const data = match === null ? '' : url.slice(match[0].length);
    if (match === null || data === '' || data.length % 4 !== 0 || !BASE64.test(data))
      throw new ApiError(
        400,
        'invalid-request',
        `${at} is a data URL that is not a base64 image: expected "data:image/png;base64,…" (or image/jpeg, image/webp, image/gif).`,
        at,
      );
    return { type: 'image', data, mimeType: match[1]!.toLowerCase(), ...(detail === undefined ? {} : { detail }) };
  }
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new ApiError(400, 'invalid-request', `${at} must be a data: URL or an http(s) link. ${shape}`, at);
  return { type: 'image-url', url, ...(detail === undefined ? {} : { detail }) };
}

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
  // The body's field the pictures are in (`messages`, or `input` of /v1/responses), for the 400s.
  const field = at.split(/[.[]/, 1)[0]!;
  for (const message of messages)
    for (const image of message.role === 'user' ? (message.images ?? []) : [])
      if (image.type === 'image' && types !== undefined && !types.includes(mediaType(image)))
        throw new ApiError(
          400,
          'invalid-request',
          `A picture of type ${image.mimeType} is in the ${field}, and the model ${model.id} takes only ${types.join(', ')}: convert it to one of them.`,
          field,
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
      images.push(
        image.type === 'image-url' ? await fetchImage(image.url, image.detail, types, field, options) : image,
      );
    out.push({ ...message, images });
  }
  return out;
}

async function fetchImage(
  url: string,
  detail: string | undefined,
  types: readonly string[] | undefined,
  field: string,
  options: Pick<SafeFetchOptions, 'signal' | 'allowPrivate' | 'allowHosts' | 'hosts'>,
): Promise<MessageImage> {
  const cannot = (why: string) =>
    new ApiError(
      400,
      'invalid-request',
      `The picture at ${url.slice(0, 200)} could not be fetched for the model, whose API takes no links: ${why}`,
      field,
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
