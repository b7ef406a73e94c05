// The tools the MCP conformance suite's tasks scenarios (SEP-2663) call, written as drop-in tools:
// `long_running` says a call may (`optional`) or must (`required`) run as a task; the rest is the
// ordinary contract (`context.signal` for cancelling, `context.ask` for a question to the person).
import { BaseTool, type ToolContext, ToolResult } from 'riverse';

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class GreetTool extends BaseTool<{ name: string }> {
  manifest() {
    return {
      name: 'greet',
      description: 'Greets someone by name, at once (a conformance scenario).',
      parameters: { name: { type: 'string' as const, required: true, description: 'Who to greet' } },
      examples: ['greet World', 'say hello to Ada'],
    };
  }
  execute(params: { name: string }) {
    return ToolResult.ok(`Hello, ${params.name}!`);
  }
}

export class SlowComputeTool extends BaseTool<{ seconds: number; label?: string }> {
  manifest() {
    return {
      name: 'slow_compute',
      description: 'Computes for the given number of seconds, then says it is done (a conformance scenario).',
      parameters: {
        seconds: { type: 'number' as const, required: true, description: 'How long it takes' },
        label: { type: 'string' as const, description: 'A name for the run' },
      },
      examples: ['compute for two seconds', 'run a slow computation'],
      long_running: 'optional' as const,
    };
  }
  async execute(params: { seconds: number; label?: string }, context: ToolContext) {
    context.progress(0, params.seconds);
    await pause(params.seconds * 1000, context.signal);
    if (context.signal.aborted) return ToolResult.fail('Stopped before it was done.');
    context.progress(params.seconds, params.seconds);
    return ToolResult.ok(`${params.label ?? 'slow_compute'}: done after ${params.seconds} s.`);
  }
}

export class FailingJobTool extends BaseTool {
  manifest() {
    return {
      name: 'failing_job',
      description: 'Works for a moment, then fails: its own error, not the server’s (a conformance scenario).',
      examples: ['run the failing job', 'start a job that fails'],
      long_running: 'required' as const,
    };
  }
  async execute(_params: object, context: ToolContext) {
    await pause(500, context.signal);
    return ToolResult.fail('failing_job failed, on purpose.');
  }
}

export class ProtocolErrorJobTool extends BaseTool {
  manifest() {
    return {
      name: 'protocol_error_job',
      description: 'Ends the worker it runs in, so that the call cannot finish (a conformance scenario).',
      examples: ['run the crashing job', 'start a job whose host dies'],
      long_running: 'optional' as const,
    };
  }
  execute(): ToolResult {
    // Its host dies under it: riverse.yaml runs it in a worker of its own.
    process.exit(3);
  }
}

export class ConfirmDeleteTool extends BaseTool<{ filename: string }> {
  manifest() {
    return {
      name: 'confirm_delete',
      description: 'Asks the person before it deletes a file, then says what it did (a conformance scenario).',
      parameters: { filename: { type: 'string' as const, required: true, description: 'The file to delete' } },
      examples: ['delete notes.txt', 'remove the old file'],
      long_running: 'optional' as const,
    };
  }
  async execute(params: { filename: string }, context: ToolContext) {
    const answer = await context.ask(`Delete ${params.filename}?`, { choices: ['yes', 'no'] });
    if (answer.answered && /^y/i.test(answer.text)) return ToolResult.ok(`Deleted ${params.filename}.`);
    return ToolResult.ok(`Kept ${params.filename} (${answer.answered ? answer.text : answer.reason}).`);
  }
}

export class MultiInputTool extends BaseTool {
  manifest() {
    return {
      name: 'multi_input',
      description: 'Asks the person two things at once (a conformance scenario).',
      examples: ['ask me two things', 'run the two-question test'],
      long_running: 'optional' as const,
    };
  }
  async execute(_params: object, context: ToolContext) {
    const [name, sure] = await Promise.all([context.ask('Your name?'), context.ask('Go ahead?')]);
    const said = (answer: typeof name) => (answer.answered ? answer.text : answer.reason);
    return ToolResult.ok(`Name: ${said(name)}; go ahead: ${said(sure)}.`);
  }
}

export class ToolWithTask extends BaseTool {
  manifest() {
    return {
      name: 'test_tool_with_task',
      description: 'Asks the person their name, then works on as a task and greets them (a conformance scenario).',
      examples: ['ask my name and greet me later', 'run the task with a question'],
      long_running: 'required' as const,
      // Asked before the call becomes a task; context.ask with this key then answers at once.
      asks_first: [
        {
          key: 'user_name',
          question: 'Your name?',
          fields: { name: { type: 'string' as const, title: 'Name' } },
          required: ['name'],
        },
      ],
    };
  }
  async execute(_params: object, context: ToolContext) {
    const answer = await context.ask('Your name?', { key: 'user_name' });
    await pause(200, context.signal);
    return ToolResult.ok(`Hello, ${answer.answered ? answer.values?.name : 'whoever you are'}!`);
  }
}
