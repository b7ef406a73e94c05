import type { ChatMessage, MessageImage } from '../models/chat-message.ts';
import { formatBytes, hasImages, imageBytes } from '../models/message-images.ts';
import type { AssistantText } from './assistant-text.ts';

/**
 * The conversation as a model that cannot see is given it: each picture becomes a line with its
 * type and size (`[image: image/png, 3.9 kB, not shown: this model does not take images]`), in
 * the turn's language, after the message's text. The conversation itself keeps the pictures (a
 * later model may see them); messages without any are passed as they are.
 */
export function describeImages(messages: readonly ChatMessage[], text: AssistantText): readonly ChatMessage[] {
  if (!hasImages(messages)) return messages;
  return messages.map((message) => {
    if (message.role === 'assistant' || message.images === undefined || message.images.length === 0) return message;
    const { images, ...rest } = message;
    const lines = images.map((image) => text.imageNotShown(describe(image)));
    return { ...rest, content: [message.content, ...lines].filter((line) => line !== '').join('\n') };
  });
}

function describe(image: MessageImage): string {
  return image.type === 'image-url' ? image.url : `${image.mimeType}, ${formatBytes(imageBytes(image))}`;
}
