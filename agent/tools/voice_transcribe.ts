import { closeSync, fstatSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';
import { missingEndpoint, endpoint, serviceError } from './_openai-endpoint.ts';
import { fileRoots, openConfinedForRead, refusal } from './_roots.ts';

type Params = { audio: string; language?: string };

/** OpenAI's limit for one transcription upload. */
const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

/**
 * Turns a recording into text through an OpenAI-compatible `/audio/transcriptions` API.
 * Unavailable until one is configured. Config (tools.voice_transcribe): base_url (with /v1),
 * api_key, model (whisper-1); timeout_ms (120000). The recording is a file inside tools.files.roots.
 */
export class VoiceTranscribeTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'voice_transcribe',
      description: {
        en: 'Transcribe a voice recording or audio file into text',
        zh: '把语音录音或音频文件转写成文字',
        ja: '音声の録音やオーディオファイルを文字に起こす',
      },
      parameters: {
        audio: {
          type: 'string',
          required: true,
          description: {
            en: 'An audio file in the workspace (mp3, m4a, wav, webm, ogg…)',
            zh: '工作区中的音频文件（mp3、m4a、wav、webm、ogg…）',
            ja: 'ワークスペースの音声ファイル（mp3、m4a、wav、webm、ogg…）',
          },
        },
        language: {
          type: 'string',
          description: {
            en: 'The spoken language as an ISO 639-1 code (en, zh, ja), if known',
            zh: '语音的语言（ISO 639-1 代码：en、zh、ja），如已知',
            ja: '話されている言語の ISO 639-1 コード（en、zh、ja）。分かれば',
          },
        },
      },
      examples: {
        en: ['Transcribe the voice memo recordings/meeting.m4a', 'What is said in voice/note.ogg?'],
        zh: ['把录音 recordings/meeting.m4a 转成文字', 'voice/note.ogg 里说了什么？'],
        ja: ['録音 recordings/meeting.m4a を文字起こしして', 'voice/note.ogg では何と言っている？'],
      },
      timeoutMs: 180_000,
      // The recording leaves the machine: a person says yes to each call.
      approval: 'always',
      annotations: { readOnlyHint: true, openWorldHint: true },
    };
  }

  override isAvailable(): boolean {
    const missing = missingEndpoint(this.config, 'voice_transcribe', 'whisper-1');
    return missing === undefined ? true : this.unavailable(missing);
  }

  async execute(params: Params, context: ToolContext): Promise<ToolResult> {
    const api = endpoint(context.config, 'voice_transcribe', 'whisper-1');
    if (typeof api === 'string') return ToolResult.fail(api);
    let opened;
    try {
      opened = openConfinedForRead(params.audio, fileRoots(this.config));
    } catch (error) {
      return refusal(error);
    }
    let audio: Buffer;
    try {
      const size = fstatSync(opened.fd).size;
      if (size > MAX_AUDIO_BYTES)
        return ToolResult.fail(
          `${params.audio} has ${size.toLocaleString('en')} bytes; at most ${MAX_AUDIO_BYTES.toLocaleString('en')} are sent in one call.`,
        );
      audio = readFileSync(opened.fd);
    } finally {
      closeSync(opened.fd);
    }
    const form = new FormData();
    form.set('file', new Blob([audio]), basename(opened.real));
    form.set('model', api.model);
    form.set('response_format', 'json');
    if (params.language !== undefined && params.language.trim() !== '') form.set('language', params.language.trim());
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(Number(context.config.timeout_ms ?? 120_000))]);
    let response: Response;
    try {
      response = await fetch(`${api.base}/audio/transcriptions`, {
        method: 'POST',
        body: form,
        signal,
        headers: api.key === '' ? {} : { authorization: `Bearer ${api.key}` },
      });
    } catch (error) {
      return ToolResult.fail(
        `Cannot reach ${api.base}: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}.`,
      );
    }
    if (!response.ok) return ToolResult.fail(`The transcription API answered ${await serviceError(response)}`);
    const answer = (await response.json().catch(() => ({}))) as { text?: unknown };
    if (typeof answer.text !== 'string') return ToolResult.fail('The transcription API sent no text.');
    return ToolResult.ok(answer.text.trim() === '' ? '(no speech was recognized)' : answer.text.trim());
  }
}
