import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';
import { missingEndpoint, endpoint, serviceError } from './_openai-endpoint.ts';
import { fileRoots, openConfinedForRead, refusal } from './_roots.ts';

type Params = { image: string; question: string };

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** An earlier call's part: `part:call_abc#2` (its 2nd part), `call_abc#2`, or `part:call_abc` / a bare id (its first picture). */
const PART_REFERENCE = /^(?:part:)?([A-Za-z0-9_.:-]{1,200}?)(?:#(\d{1,3}))?$/;

/**
 * Describes an image, or answers a question about it, through an OpenAI-compatible chat
 * completions API that takes images. Unavailable until one is configured. Config
 * (tools.image_describe): base_url (with /v1), api_key, model; timeout_ms (60000). The image
 * is a file inside tools.files.roots (sent to the API), an http(s) address (the API fetches it), or
 * an image part of an earlier call of the conversation, by that call's id (`call_abc#2`: its 2nd part).
 */
export class ImageDescribeTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'image_describe',
      description: {
        en: 'Describe an image, or answer a question about it',
        zh: '描述一张图片，或回答关于图片的问题',
        ja: '画像を説明する、または画像についての質問に答える',
      },
      parameters: {
        image: {
          type: 'string',
          required: true,
          description: {
            en: "An image file in the workspace, an http(s) address of one, a data: URL, or a picture an earlier call returned: that call's id, with #n for its n-th part (call_abc#2)",
            zh: '工作区中的图片文件、图片的 http(s) 地址、data: URL，或之前某次调用返回的图片：该调用的 id，用 #n 表示其第 n 个部件（call_abc#2）',
            ja: 'ワークスペースの画像ファイル、画像の http(s) アドレス、data: URL、または以前の呼び出しが返した画像：その呼び出しの id（n 番目のパーツは #n：call_abc#2）',
          },
        },
        question: {
          type: 'string',
          default: 'Describe this image.',
          description: { en: 'What to ask about the image', zh: '关于图片要问的问题', ja: '画像について尋ねること' },
        },
      },
      examples: {
        en: ['What is in photos/receipt.jpg?', 'Describe the picture at https://example.com/cat.png'],
        zh: ['photos/receipt.jpg 这张图里有什么？', '描述一下 https://example.com/cat.png 这张图片'],
        ja: ['photos/receipt.jpg には何が写っている？', 'https://example.com/cat.png の画像を説明して'],
      },
      timeoutMs: 90_000,
      // The image leaves the machine: a person says yes to each call.
      approval: 'always',
      annotations: { readOnlyHint: true, openWorldHint: true },
    };
  }

  override isAvailable(): boolean {
    const missing = missingEndpoint(this.config, 'image_describe');
    return missing === undefined ? true : this.unavailable(missing);
  }

  async execute(params: Params, context: ToolContext): Promise<ToolResult> {
    const api = endpoint(context.config, 'image_describe');
    if (typeof api === 'string') return ToolResult.fail(api);
    let url: string;
    if (/^https?:\/\//i.test(params.image)) url = params.image;
    else if (/^data:image\/(png|jpeg|gif|webp);base64,/i.test(params.image)) {
      // An image part of an earlier result, as its bytes: sent as it is, within the same bound as a file.
      if ((params.image.length * 3) / 4 > MAX_IMAGE_BYTES)
        return ToolResult.fail(
          `The image has more than ${MAX_IMAGE_BYTES.toLocaleString('en')} bytes; at most that many are sent.`,
        );
      url = params.image;
    } else if (isReference(params.image)) {
      const found = await earlierImage(params.image, context);
      if (typeof found !== 'string') return ToolResult.fail(found.error);
      url = found;
    } else {
      const type = TYPES[extname(params.image).toLowerCase()];
      if (type === undefined)
        return ToolResult.fail(`${params.image} is not an image this tool sends (${Object.keys(TYPES).join(' ')}).`);
      let opened;
      try {
        opened = openConfinedForRead(params.image, fileRoots(this.config));
      } catch (error) {
        return refusal(error);
      }
      try {
        const size = fstatSync(opened.fd).size;
        if (size > MAX_IMAGE_BYTES)
          return ToolResult.fail(
            `${params.image} has ${size.toLocaleString('en')} bytes; at most ${MAX_IMAGE_BYTES.toLocaleString('en')} are sent.`,
          );
        url = `data:${type};base64,${readFileSync(opened.fd).toString('base64')}`;
      } finally {
        closeSync(opened.fd);
      }
    }
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(Number(context.config.timeout_ms ?? 60_000))]);
    let response: Response;
    try {
      response = await fetch(`${api.base}/chat/completions`, {
        method: 'POST',
        signal,
        headers: {
          'content-type': 'application/json',
          ...(api.key === '' ? {} : { authorization: `Bearer ${api.key}` }),
        },
        body: JSON.stringify({
          model: api.model,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: params.question },
                { type: 'image_url', image_url: { url } },
              ],
            },
          ],
          max_tokens: 1000,
        }),
      });
    } catch (error) {
      return ToolResult.fail(
        `Cannot reach ${api.base}: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}.`,
      );
    }
    if (!response.ok) return ToolResult.fail(`The image API answered ${await serviceError(response)}`);
    const answer = (await response.json().catch(() => ({}))) as {
      choices?: Array<{ message?: { content?: unknown } }>;
    };
    const content = answer.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '')
      return ToolResult.fail('The image API sent no description.');
    return ToolResult.ok(content.trim());
  }
}

/** Whether the image names an earlier call's part rather than a file: `part:…`, `…#n`, or an id with no extension or folder. */
function isReference(image: string): boolean {
  if (image.startsWith('part:') || /#\d{1,3}$/.test(image)) return PART_REFERENCE.test(image);
  return PART_REFERENCE.test(image) && !image.includes('/') && extname(image) === '';
}

/** The picture an earlier call returned, as a data: URL, or what is wrong with the reference. */
async function earlierImage(image: string, context: ToolContext): Promise<string | { error: string }> {
  const [, callId, number] = PART_REFERENCE.exec(image)!;
  const index = number === undefined ? undefined : Number(number);
  const which = index === undefined ? 'a picture' : `part ${index}`;
  if (index === 0) return { error: `Parts are numbered from 1: ${image} names none.` };
  const part = await context.resultPart(callId!, index);
  if (part === undefined)
    return {
      error: `No call ${callId} with ${which} is in this conversation (or its picture was too large to be kept past its turn). Give the id of a call that returned a picture, with #n for its n-th part, or a file or an address.`,
    };
  if (part.type !== 'image' || !/^image\/(png|jpeg|gif|webp)$/.test(part.mimeType))
    return {
      error: `Part ${index ?? 1} of call ${callId} is ${part.type === 'image' ? part.mimeType : part.type}, not a png, jpeg, gif or webp picture.`,
    };
  const bytes = typeof part.data === 'string' ? Buffer.from(part.data, 'base64') : part.data;
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    return {
      error: `The picture has more than ${MAX_IMAGE_BYTES.toLocaleString('en')} bytes; at most that many are sent.`,
    };
  return `data:${part.mimeType};base64,${typeof part.data === 'string' ? part.data : Buffer.from(part.data).toString('base64')}`;
}
