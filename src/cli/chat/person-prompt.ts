import type { ApprovalDecision, Approvals } from '../../assistant/approvals.ts';
import type { TurnEvent } from '../../assistant/turn-events.ts';
import { jsonText } from '../../models/json-text.ts';
import type { Language } from '../../core/language.ts';
import { fieldPrompt, formHeading, readFieldLine } from './form-prompt.ts';

/** What the terminal asks a person: approvals of calls, and the questions tools ask (ask_user). */
const PERSON_TEXT: Record<
  Language,
  {
    approve: (tool: string, params: string) => string;
    choices: (tool: string) => string;
    again: string;
    stale: (why: string) => string;
    ended: (tool: string, how: 'approval-timeout' | 'aborted') => string;
    question: (tool: string, question: string, choices: string) => string;
  }
> = {
  en: {
    approve: (tool, params) => `[approval] ${tool} wants to run with ${params}`,
    choices: (tool) => `  y = yes, once · a = always for ${tool} in this session · n = no (n <reason> says why) > `,
    again: '  Please answer y, a or n (n <reason>). > ',
    stale: (why) => `[approval not recorded: ${why}]`,
    ended: (tool, how) =>
      how === 'approval-timeout' ? `[no answer in time: ${tool} did not run]` : `[stopped: ${tool} did not run]`,
    question: (tool, question, choices) => `[${tool} asks] ${question}${choices === '' ? '' : ` (${choices})`}\n  > `,
  },
  zh: {
    approve: (tool, params) => `[需要批准] ${tool} 要以 ${params} 运行`,
    choices: (tool) => `  y = 同意（仅此一次）· a = 本会话中始终允许 ${tool} · n = 拒绝（n <理由> 可附上理由）> `,
    again: '  请回答 y、a 或 n（n <理由>）。> ',
    stale: (why) => `[未记录此回答：${why}]`,
    ended: (tool, how) =>
      how === 'approval-timeout' ? `[未在时限内回答：${tool} 没有运行]` : `[已停止：${tool} 没有运行]`,
    question: (tool, question, choices) => `[${tool} 提问] ${question}${choices === '' ? '' : `（${choices}）`}\n  > `,
  },
  ja: {
    approve: (tool, params) => `[承認] ${tool} を ${params} で実行しようとしています`,
    choices: (tool) =>
      `  y = 今回だけ許可 · a = このセッションでは ${tool} を常に許可 · n = 拒否（n <理由> で理由を添える）> `,
    again: '  y・a・n（n <理由>）のどれかで答えてください。> ',
    stale: (why) => `[この回答は記録されませんでした：${why}]`,
    ended: (tool, how) =>
      how === 'approval-timeout'
        ? `[時間内に回答がありませんでした：${tool} は実行されていません]`
        : `[中止しました：${tool} は実行されていません]`,
    question: (tool, question, choices) =>
      `[${tool} からの質問] ${question}${choices === '' ? '' : `（${choices}）`}\n  > `,
  },
};

/** An answer typed at the approval prompt, in any of the three languages; undefined when it is none of them. */
export function readDecision(line: string): { decision: ApprovalDecision; reason?: string } | undefined {
  const text = line.trim();
  if (/^(?:y|yes|是|好|同意|はい)$/i.test(text)) return { decision: 'approve' };
  if (/^(?:a|always|总是|始终|常に|いつも)$/i.test(text)) return { decision: 'always' };
  const no = /^(?:n|no|否|不|拒绝|いいえ)(?:$|[\s:：,，、]+([\s\S]*)$)/i.exec(text);
  if (no === null) return undefined;
  const reason = no[1]?.trim();
  return { decision: 'deny', ...(reason === undefined || reason === '' ? {} : { reason }) };
}

/** Lines of input shared by the chat and its prompts: a read that a prompt gave up on goes to the next reader, not lost. */
export interface LineReader {
  next(): Promise<string | undefined>;
}

export function lineReader(lines: AsyncIterator<string>): LineReader & { pending(): Promise<string | undefined> } {
  let waiting: Promise<string | undefined> | undefined;
  const pending = () => (waiting ??= lines.next().then((result) => (result.done === true ? undefined : result.value)));
  return {
    pending,
    async next() {
      const line = await pending();
      waiting = undefined;
      return line;
    },
  };
}

type Ask =
  | { kind: 'approval'; event: Extract<TurnEvent, { type: 'approval-request' }> }
  | { kind: 'question'; event: Extract<TurnEvent, { type: 'question' }> };

/**
 * The terminal's side of approvals and questions during a turn: each one printed and answered in
 * turn (parallel calls one after another, each answer bound to the call it was shown), the answer
 * going to `approvals`. One that ends without an answer (the time limit, Ctrl-C) is dropped, and
 * the line its prompt was reading goes to whoever reads next.
 */
export function terminalPrompts(options: {
  approvals: Approvals;
  reader: ReturnType<typeof lineReader>;
  write: (text: string) => void;
  language: Language;
  echoes: boolean;
}): (event: TurnEvent) => void {
  const text = PERSON_TEXT[options.language];
  const queue: Ask[] = [];
  const ended = new Set<string>();
  let busy = false;
  let cancelActive: (() => void) | undefined;
  let activeId: string | undefined;

  /** The next line, or undefined when the prompt was given up on (its line then goes to the next reader). */
  const readLine = () =>
    new Promise<string | undefined | 'cancelled'>((resolve) => {
      let cancelled = false;
      cancelActive = () => {
        cancelled = true;
        resolve('cancelled');
      };
      options.reader.pending().then(
        () => {
          if (cancelled) return;
          resolve(options.reader.next());
          // Piped input is not echoed: end the prompt's line.
          if (!options.echoes) options.write('\n');
        },
        () => resolve(undefined),
      );
    });

  const handle = async (ask: Ask) => {
    if (ask.kind === 'question' && ask.event.fields !== undefined) {
      const { event } = ask;
      const required = new Set(event.required ?? []);
      const values: Record<string, unknown> = {};
      options.write(formHeading(options.language, event.tool, event.question));
      for (const [name, field] of Object.entries(ask.event.fields)) {
        options.write(fieldPrompt(options.language, name, field, required.has(name)));
        for (;;) {
          const line = await readLine();
          if (line === 'cancelled') return;
          // Input closed: no one is there to answer.
          if (line === undefined) {
            await options.approvals.decline(event.questionId);
            return;
          }
          const read = readFieldLine(options.language, field, line, required.has(name));
          if (read === 'empty') break;
          if ('again' in read) {
            options.write(`  ${read.again} > `);
            continue;
          }
          values[name] = read.value;
          break;
        }
      }
      await options.approvals.replyForm(event.questionId, values);
      return;
    }
    if (ask.kind === 'question') {
      const { event } = ask;
      options.write(text.question(event.tool, event.question, (event.choices ?? []).join(' / ')));
      const line = await readLine();
      if (line !== 'cancelled') await options.approvals.reply(event.questionId, line ?? '');
      return;
    }
    const { event } = ask;
    options.write(`${text.approve(event.tool, jsonText(event.params))}\n${text.choices(event.tool)}`);
    for (;;) {
      const line = await readLine();
      if (line === 'cancelled') return;
      // Input closed: no one is there to say yes.
      const decision =
        line === undefined ? { decision: 'deny' as const, reason: 'no answer: the input ended' } : readDecision(line);
      if (decision === undefined) {
        options.write(text.again);
        continue;
      }
      const outcome = await options.approvals.answer(event.approvalId, {
        ...decision,
        callId: event.callId,
        tool: event.tool,
        params: event.params,
      });
      if (!outcome.ok) options.write(`${text.stale(outcome.message)}\n`);
      return;
    }
  };

  const pump = async () => {
    if (busy) return;
    busy = true;
    try {
      for (let ask = queue.shift(); ask !== undefined; ask = queue.shift()) {
        const id = ask.kind === 'approval' ? ask.event.approvalId : ask.event.questionId;
        if (ended.has(id)) continue;
        activeId = id;
        await handle(ask);
        activeId = undefined;
        cancelActive = undefined;
      }
    } finally {
      busy = false;
    }
  };

  return (event) => {
    if (event.type === 'approval-request') queue.push({ kind: 'approval', event });
    else if (event.type === 'question') queue.push({ kind: 'question', event });
    else if (
      event.type === 'approval-answered' &&
      (event.decision === 'approval-timeout' || event.decision === 'aborted')
    ) {
      ended.add(event.approvalId);
      if (activeId === event.approvalId) {
        options.write(`\n${text.ended(event.tool, event.decision)}\n`);
        cancelActive?.();
      }
      return;
    } else if (event.type === 'question-ended') {
      ended.add(event.questionId);
      if (activeId === event.questionId) {
        options.write('\n');
        cancelActive?.();
      }
      return;
    } else return;
    void pump();
  };
}
