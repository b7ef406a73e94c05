import type { InputResponseView } from '@modelcontextprotocol/server';
import { checkFormValues, formText } from '../tools/ask-form.ts';
import type { AskAnswer, AskQuestion } from '../tools/tool-context.ts';

// The forms Riverse's MCP server puts to the person through the client (elicitation), the same in
// every revision: a yes/no for a call that needs approval, one text for a tool's `context.ask`, or
// the tool's own form when it asks with fields (they are MCP's field schemas already: ask-form.ts).

export function approvalQuestion(tool: string, params: Record<string, unknown>) {
  return {
    mode: 'form' as const,
    message: `Riverse: run ${tool} with ${JSON.stringify(params).slice(0, 2_000)}?`,
    requestedSchema: {
      type: 'object' as const,
      properties: {
        approve: {
          type: 'boolean' as const,
          title: `Run ${tool}`,
          description: 'Yes runs the call once; anything else refuses it.',
        },
      },
      required: ['approve'],
    },
  };
}

/** A question in words: its choices are named in the field's description, not an enum (the person may write another). */
export function askQuestion(question: AskQuestion) {
  if (question.fields !== undefined)
    return {
      mode: 'form' as const,
      message: question.question,
      requestedSchema: {
        type: 'object' as const,
        properties: question.fields,
        ...(question.required === undefined ? {} : { required: question.required }),
      },
    };
  const choices = question.choices ?? [];
  return {
    mode: 'form' as const,
    message: question.question,
    requestedSchema: {
      type: 'object' as const,
      properties: {
        answer: {
          type: 'string' as const,
          title: 'Answer',
          ...(choices.length === 0 ? {} : { description: `For example: ${choices.join(' / ')}` }),
        },
      },
      required: ['answer'],
    },
  };
}

/** Whether a form came back with a yes to the approval. */
export function approved(answer: { action: string; content?: Record<string, unknown> }): boolean {
  return answer.action === 'accept' && answer.content?.approve === true;
}

/**
 * A form's answer as `context.ask` gives it: the text (and a form's values, checked against its
 * fields, defaults filled in), or why there is none; undefined when the client accepted with
 * content that does not fit the question (not an answer: the question stands).
 */
export function askAnswer(
  answer: { action: string; content?: Record<string, unknown> },
  question: AskQuestion,
): AskAnswer | undefined {
  if (answer.action !== 'accept') return { answered: false, reason: 'cancelled' };
  if (question.fields === undefined)
    return typeof answer.content?.answer === 'string' ? { answered: true, text: answer.content.answer } : undefined;
  const values = checkFormValues({ fields: question.fields, ...question }, answer.content ?? {});
  return typeof values === 'string' ? undefined : { answered: true, text: formText(values), values };
}

/** An input response that is an elicitation's, as the form answer above reads it. */
export function formAnswer(view: InputResponseView): { action: string; content?: Record<string, unknown> } {
  return view.kind === 'elicit' ? view : { action: 'cancel' };
}
