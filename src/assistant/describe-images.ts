import type { ChatMessage, MessageImage } from '../models/chat-message.ts';
import type { ChatModel } from '../models/chat-model.ts';
import { formatBytes, hasImages, imageBytes, mediaType } from '../models/message-images.ts';
import type { AssistantText } from './assistant-text.ts';

/**
 * The conversation as the model can take it: for a model that cannot see, each picture becomes a
 * line with its type and size (`[image: image/png, 3.9 kB, not shown: this model does not take
 * images]`) in the turn's language, after the message's text; so does a picture of a type its API
 * refuses (which would fail the whole request). The conversation itself keeps the pictures (a
 * later model may see them); without pictures to describe, it is passed as it is.
 */
export function describeUnseenImages(
  messages: readonly ChatMessage[],
  model: ChatModel,
  text: AssistantText,
): readonly ChatMessage[] {
  if (!hasImages(messages)) return messages;
  const types = model.imageTypes;
  const shown = (image: MessageImage) =>
    model.vision === true && (image.type === 'image-url' || types === undefined || types.includes(mediaType(image)));
  if (messages.every((message) => message.role === 'assistant' || (message.images ?? []).every(shown))) return messages;
  return messages.map((message) => {
    if (message.role === 'assistant' || message.images === undefined || message.images.every(shown)) return message;
    const { images, ...rest } = message;
    const kept = images.filter(shown);
    const lines = images
      .filter((image) => !shown(image))
      .map((image) =>
        model.vision === true && types !== undefined
          ? text.imageTypeNotShown(describe(image), types.map((type) => type.replace('image/', '')).join(', '))
          : text.imageNotShown(describe(image)),
      );
    const content = [message.content, ...lines].filter((line) => line !== '').join('\n');
    return kept.length === 0 ? { ...rest, content } : { ...rest, content, images: kept };
  });
}

function describe(image: MessageImage): string {
  return image.type === 'image-url' ? image.url : `${mediaType(image)}, ${formatBytes(imageBytes(image))}`;
}
