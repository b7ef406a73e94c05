import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

type Params = { question: string; choices?: string[] };

/** Five minutes by default: a person may be away from the screen for a moment, not for the day. */
const DEFAULT_WAIT_MS = 300_000;
/** The most a question waits (an hour), however the config is set; the call's own limit is above it. */
const MAX_WAIT_MS = 3_600_000;

/**
 * Asks the person a question in the channel they are using (the terminal chat, the dashboard, the
 * API) and waits for the answer. Config: tools.ask_user.timeout_ms (how long it waits, 300 000).
 */
export class AskUserTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'ask_user',
      description: {
        en: 'Ask the user a question and wait for their answer, when you need a detail or a choice only they can give',
        zh: '在需要只有用户才能提供的信息或决定时，向用户提问并等待回答',
        ja: 'ユーザーにしか分からない情報や選択が必要なとき、ユーザーに質問して答えを待つ',
      },
      parameters: {
        question: {
          type: 'string',
          required: true,
          description: {
            en: "The question, in the user's language",
            zh: '问题，用用户的语言',
            ja: '質問（ユーザーの言語で）',
          },
        },
        choices: {
          type: 'array',
          items: { type: 'string' },
          description: {
            en: 'Answers to offer, if there are a few (the user may still write another)',
            zh: '可选的回答（如有几个；用户仍可自行回答）',
            ja: '選択肢（いくつかある場合。ユーザーは別の答えも書けます）',
          },
        },
      },
      examples: {
        en: ['Book me a table, but ask me which restaurant first', 'Before you send it, ask me who should get it'],
        zh: ['帮我订位，但先问我选哪家餐厅', '发送之前先问我发给谁'],
        ja: ['予約して。でも先にどの店か聞いて', '送る前に宛先を私に聞いて'],
      },
      timeoutMs: MAX_WAIT_MS + 60_000,
      annotations: { readOnlyHint: true, openWorldHint: false },
    };
  }

  async execute(params: Params, context: ToolContext): Promise<ToolResult> {
    const configured = Number(context.config.timeout_ms);
    const timeoutMs =
      Number.isInteger(configured) && configured > 0 ? Math.min(configured, MAX_WAIT_MS) : DEFAULT_WAIT_MS;
    const choices = params.choices?.filter((choice) => choice.trim() !== '').slice(0, 10);
    const answer = await context.ask(params.question, {
      timeoutMs,
      ...(choices === undefined || choices.length === 0 ? {} : { choices }),
    });
    if (answer.answered)
      return ToolResult.ok(
        answer.text.trim() === '' ? 'The user answered with nothing.' : `The user answered: ${answer.text}`,
      );
    if (answer.reason === 'unavailable')
      return ToolResult.fail(
        'No one can be asked here (this conversation has no person at a screen); go on without the answer, or say what you need to know.',
      );
    if (answer.reason === 'timeout')
      return ToolResult.fail(
        `The user did not answer within ${Math.round(timeoutMs / 1000)} s; go on without the answer, or ask again later.`,
      );
    return ToolResult.fail('The question was withdrawn: the turn was stopped.');
  }
}
