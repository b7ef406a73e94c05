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

/**
 * Describes an image, or answers a question about it, through an OpenAI-compatible chat
 * completions API that takes images. Unavailable until one is configured. Config
 * (tools.image_describe): base_url (with /v1), api_key, model; timeout_ms (60000). The image
 * is a file inside tools.files.roots (sent to the API) or an http(s) address (the API fetches it).
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
            en: 'An image file in the workspace, an http(s) address of one, or an image part as a data: URL',
            zh: '工作区中的图片文件、图片的 http(s) 地址，或以 data: URL 表示的图片部件',
            ja: 'ワークスペースの画像ファイル、画像の http(s) アドレス、または data: URL の画像パーツ',
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
