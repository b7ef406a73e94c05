// Three `riverse serve` processes on one store behind HAProxy (round-robin), as a household or a
// team would run them: every route behaves as on one machine when its requests land on different
// replicas. The store is a shared SQLite data folder (WAL: several processes on one file); the model
// is a scripted OpenAI-compatible server in this process.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type OpenAITestServer, startOpenAITestServer } from '../models/testing/openai-wire.ts';
import { type LoadBalancer, startLoadBalancer } from './testing/load-balancer.ts';
import { type Replica, type ReplicaSet, startReplicas } from './testing/replicas.ts';
import { startPgCluster } from '../store/postgres/testing/pg-cluster.ts';
import { postStateless, statelessRpc, streamedMessages } from '../mcp/testing/stateless-rpc.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `note(text)`: needs approval; appends `text` and the pid of the replica that ran it to its log, so a run is counted. */
const NOTE_TOOL = `import { appendFileSync } from 'node:fs';
import { BaseTool, ToolResult, type ToolManifest } from 'riverse';

export class NoteTool extends BaseTool<{ text: string }> {
  manifest(): ToolManifest {
    return {
      name: 'note',
      description: 'Writes a note down',
      parameters: { text: { type: 'string', required: true, description: 'The note' } },
      examples: ['Note that the milk is out', 'Write down: call Ada'],
      approval: 'always',
    };
  }

  async execute(params: { text: string }) {
    appendFileSync((this.config as any).tools.note.log, params.text + ' ' + process.ppid + '\\n');
    return ToolResult.ok('noted: ' + params.text);
  }
}
`;

/** `ask(question)`: asks the person in words, and says their answer. */
const ASK_TOOL = `import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

export class AskTool extends BaseTool<{ question: string }> {
  manifest(): ToolManifest {
    return {
      name: 'ask',
      description: 'Asks the person a question',
      parameters: { question: { type: 'string', required: true, description: 'The question' } },
      examples: ['Ask me which city', 'Ask me before you go on'],
    };
  }

  async execute(params: { question: string }, context: ToolContext) {
    const answer = await context.ask(params.question);
    return answer.answered ? ToolResult.ok('The user answered: ' + answer.text) : ToolResult.fail('no answer: ' + answer.reason);
  }
}
`;

/** `survey()`: a task (long_running) that asks the person, then says the answer and its replica's pid. */
const SURVEY_TOOL = `import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

export class SurveyTool extends BaseTool<{ topic?: string }> {
  manifest(): ToolManifest {
    return {
      name: 'survey',
      description: 'Runs a survey',
      parameters: { topic: { type: 'string', description: 'About what' } },
      examples: ['Run the survey', 'Survey the team'],
      long_running: 'required',
    };
  }

  async execute(_params: { topic?: string }, context: ToolContext) {
    const answer = await context.ask('Which quarter?');
    return answer.answered ? ToolResult.ok('surveyed ' + answer.text + ' on ' + process.ppid) : ToolResult.fail('no answer: ' + answer.reason);
  }
}
`;

/** `book()`: asks the person a form (how many guests, 1 to 8) and says the answer and the pid of the replica whose turn asked. */
const BOOK_TOOL = `import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

export class BookTool extends BaseTool<{ place?: string }> {
  manifest(): ToolManifest {
    return {
      name: 'book',
      description: 'Books a table',
      parameters: { place: { type: 'string', description: 'Where' } },
      examples: ['Book a table', 'Reserve dinner for us'],
    };
  }

  async execute(_params: { place?: string }, context: ToolContext) {
    const answer = await context.ask('How many guests?', {
      fields: { guests: { type: 'integer', minimum: 1, maximum: 8 } },
      required: ['guests'],
    });
    if (!answer.answered) return ToolResult.fail('no answer: ' + answer.reason);
    return ToolResult.ok('booked for ' + answer.values?.guests + ' on ' + process.ppid);
  }
}
`;

/**
 * The model: "note …" asks for the note tool, "ask …" for the ask tool with that question, "book" for
 * the book tool, then answers (a question's with what the tool said); anything else is answered at once.
 */
function scriptedModel(request: { body: { messages: { role: string; content?: unknown }[] } }) {
  const messages = request.body.messages;
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const text = String(messages[lastUser]?.content ?? '');
  const answered = messages.slice(lastUser).some((message) => message.role === 'tool');
  const note = /^note (.+)$/.exec(text)?.[1];
  const question = /^ask (.+)$/.exec(text)?.[1];
  if (!answered) {
    if (note !== undefined) return { toolCalls: [{ name: 'note', arguments: { text: note } }] };
    if (question !== undefined) return { toolCalls: [{ name: 'ask', arguments: { question } }] };
    if (text === 'book' || text === 'survey') return { toolCalls: [{ name: text, arguments: {} }] };
  }
  const said = String(messages.at(-1)?.content ?? '');
  return { text: !answered ? `You said: ${text}` : note !== undefined ? 'Done.' : `Heard: ${said}` };
}

interface SseEvent {
  type: string;
  data: any;
}

/** Reads an SSE response's events as they come; `next(type)` waits for the next of that type. */
function sseReader(response: Response) {
  const events: SseEvent[] = [];
  const waiting: { type: string; resolve: (event: SseEvent) => void }[] = [];
  const read = 0;
  const done = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (type === undefined || data === undefined) continue;
        events.push({ type, data: JSON.parse(data) });
        for (const waiter of [...waiting]) {
          const found = events.slice(read).find((event) => event.type === waiter.type);
          if (found !== undefined) {
            waiting.splice(waiting.indexOf(waiter), 1);
            waiter.resolve(found);
          }
        }
      }
    }
  })().catch(() => {});
  return {
    events,
    done,
    next(type: string): Promise<SseEvent> {
      const found = events.find((event, index) => index >= read && event.type === type);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiting.push({ type, resolve }));
    },
  };
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const TASKS = 'io.modelcontextprotocol/tasks';

/** One stateless /mcp request (2026-07-28: any replica may take it) to the replica or balancer at `base`. */
const mcp2026 = (base: string, method: string, params: Record<string, unknown>) =>
  statelessRpc(`${base}mcp`, method, params) as Promise<Record<string, any>>;

/** An MCP client of the official SDK (2025-11-25, with elicitation and the tasks extension) with its session on the replica at `base`. */
async function sdkClient(base: string) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { z } = await import('zod');
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } as never },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('mcp', base)));
  const any = z.object({}).passthrough();
  return {
    request: (method: string, params: Record<string, unknown>) =>
      client.request({ method, params }, any) as Promise<Record<string, any>>,
    close: () => client.close(),
  };
}

/** The store the replicas share: made before they start, gone after; `restart` for a database that can. */
interface SharedStore {
  store: { dataDir: string } | { databaseUrl: string };
  /** Stops the database and starts it again (a server's restart); none for a file. */
  restart?: () => Promise<void>;
  stop(): Promise<void>;
}

const STORES: { name: string; restartable: boolean; make: (folder: string) => Promise<SharedStore> }[] = [
  // One SQLite data folder for every replica: several processes on one file (WAL), one machine.
  {
    name: 'one SQLite file',
    restartable: false,
    make: async (folder) => ({ store: { dataDir: join(folder, 'data') }, stop: async () => {} }),
  },
  // A throwaway PostgreSQL cluster (Debian's package, as a non-root user): what replicas on several machines share.
  {
    name: 'PostgreSQL',
    restartable: true,
    make: async () => {
      const cluster = await startPgCluster();
      return {
        store: { databaseUrl: await cluster.createDatabase('replicas') },
        restart: () => cluster.restart(),
        stop: () => cluster.stop(),
      };
    },
  },
];

for (const kind of STORES)
  describe(`replicas behind a load balancer, on ${kind.name}`, () => {
    let shared: SharedStore;
    let folder: string;
    let model: OpenAITestServer;
    let set: ReplicaSet;
    let replicas: Replica[];
    let balancer: LoadBalancer;
    let noteLog: string;

    before(async () => {
      folder = mkdtempSync(join(tmpdir(), 'riverse-replicas-'));
      const project = join(folder, 'project');
      mkdirSync(join(project, 'agent', 'tools'), { recursive: true });
      mkdirSync(join(project, 'node_modules'), { recursive: true });
      symlinkSync(ROOT, join(project, 'node_modules', 'riverse'), 'dir');
      noteLog = join(folder, 'notes.log');
      writeFileSync(join(project, 'agent', 'tools', 'note.ts'), NOTE_TOOL);
      writeFileSync(join(project, 'agent', 'tools', 'ask.ts'), ASK_TOOL);
      writeFileSync(join(project, 'agent', 'tools', 'book.ts'), BOOK_TOOL);
      writeFileSync(join(project, 'agent', 'tools', 'survey.ts'), SURVEY_TOOL);
      writeFileSync(join(project, 'riverse.yaml'), `tools:\n  note:\n    log: ${JSON.stringify(noteLog)}\n`);
      model = await startOpenAITestServer(scriptedModel);
      shared = await kind.make(folder);
      // Started together on an empty store: their migrations race, as two replicas' would.
      set = await startReplicas(3, {
        cwd: project,
        store: shared.store,
        env: { RIVERSE_MODEL: 'openai:test-model', OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test' },
      });
      replicas = set.replicas;
      balancer = await startLoadBalancer(replicas.map((replica) => replica.port));
    });

    after(async () => {
      await balancer?.stop();
      await set?.stop();
      await shared?.stop();
      await model?.close();
      if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
    });

    const chat = (base: string, session: string, message: string) =>
      fetch(`${base}api/chat`, json({ session, message })).then((response) => {
        assert.equal(response.status, 200);
        return sseReader(response);
      });
    const notes = () => (existsSync(noteLog) ? readFileSync(noteLog, 'utf8').trim().split('\n') : []);
    const pidOf = (replica: Replica) => replica.id.split(':')[1];

    it('three replicas started at once on an empty store all serve, each with its own id; round-robin reaches each', async () => {
      const ids = new Set<string>();
      for (let index = 0; index < 6; index++) {
        const status = (await (await fetch(`${balancer.url}api/status`)).json()) as { replica: { id: string } };
        ids.add(status.replica.id);
      }
      assert.deepEqual([...ids].sort(), replicas.map((replica) => replica.id).sort());
      assert.match(replicas[0]!.id, /^[^:]+:\d+:[0-9a-f]{8}$/);
    });

    it('a session started on one replica goes on from another, with its whole history', async () => {
      const first = await chat(replicas[0]!.url, 'shared', 'my name is Ada');
      assert.equal((await first.next('done')).data.text, 'You said: my name is Ada');
      const second = await chat(replicas[1]!.url, 'shared', 'what is my name?');
      assert.equal((await second.next('done')).data.stopReason, 'answer');
      const asked = model.requests.at(-1)!.body.messages.map((message) => message.content);
      assert.ok(asked.includes('my name is Ada'), `the second replica sent the first turn: ${JSON.stringify(asked)}`);
      const session = (await (await fetch(`${replicas[2]!.url}api/sessions/shared`)).json()) as {
        messages: { content: string }[];
      };
      assert.deepEqual(
        session.messages.map((message) => message.content),
        ['my name is Ada', 'You said: my name is Ada', 'what is my name?', 'You said: what is my name?'],
      );
    });

    it("an approval asked on one replica shows on another's event stream, is answered there, and the call runs once, on the first", async () => {
      const events = sseReader(await fetch(`${replicas[1]!.url}api/events`));
      const turn = await chat(replicas[0]!.url, 'approve-elsewhere', 'note buy milk');
      const asked = await turn.next('approval-request');
      const seen = await events.next('approval-request');
      assert.equal(seen.data.approvalId, asked.data.approvalId);
      assert.equal(seen.data.tool, 'note');
      assert.deepEqual(seen.data.params, { text: 'buy milk' });
      assert.equal(seen.data.session, 'approve-elsewhere');
      // The same session is busy on every replica while its turn runs on the first.
      const busy = await fetch(`${replicas[2]!.url}api/chat`, json({ session: 'approve-elsewhere', message: 'hi' }));
      assert.equal(busy.status, 409);
      assert.equal(((await busy.json()) as { error: { code: string } }).error.code, 'session-busy');
      const answered = await fetch(
        `${replicas[1]!.url}api/approvals/${asked.data.approvalId}`,
        json({ decision: 'approve' }),
      );
      assert.equal(answered.status, 200, await answered.clone().text());
      const again = await fetch(
        `${replicas[2]!.url}api/approvals/${asked.data.approvalId}`,
        json({ decision: 'deny' }),
      );
      assert.equal(again.status, 409, 'the first answer counts, on any replica');
      const result = await turn.next('tool-result');
      assert.equal(result.data.success, true);
      assert.equal(result.data.data, 'noted: buy milk');
      assert.equal((await turn.next('done')).data.text, 'Done.');
      assert.equal((await events.next('approval-answered')).data.decision, 'approved');
      assert.deepEqual(
        notes().filter((line) => line.startsWith('buy milk')),
        [`buy milk ${pidOf(replicas[0]!)}`],
      );
    });

    it("a question asked in a turn on one replica shows on another's event stream and list, is answered there, and the turn goes on with it on the first", async () => {
      const stream = new AbortController();
      const events = sseReader(await fetch(`${replicas[1]!.url}api/events`, { signal: stream.signal }));
      const turn = await chat(replicas[0]!.url, 'ask-elsewhere', 'ask Which city?');
      const asked = (await turn.next('question')).data;
      const seen = (await events.next('question-request')).data;
      assert.equal(seen.questionId, asked.questionId);
      assert.deepEqual([seen.session, seen.tool, seen.question], ['ask-elsewhere', 'ask', 'Which city?']);
      const listed = (await (await fetch(`${replicas[2]!.url}api/approvals`)).json()) as {
        approvals: { kind: string; id: string }[];
      };
      assert.ok(
        listed.approvals.some((request) => request.kind === 'question' && request.id === asked.questionId),
        'every replica lists it',
      );
      const answered = await fetch(`${replicas[1]!.url}api/approvals/${asked.questionId}`, json({ answer: 'Oslo' }));
      assert.equal(answered.status, 200, await answered.clone().text());
      const again = await fetch(`${replicas[2]!.url}api/approvals/${asked.questionId}`, json({ answer: 'Paris' }));
      assert.equal(again.status, 409, 'the first answer counts, on any replica');
      assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'not-pending');
      assert.equal((await turn.next('done')).data.text, 'Heard: The user answered: Oslo');
      const ended = (await events.next('question-answered')).data;
      assert.deepEqual([ended.questionId, ended.answered], [asked.questionId, true]);
      stream.abort();
    });

    it('a form asked on one replica is answered through the balancer: an invalid value is refused with its error, the values go on in the turn that asked', async () => {
      const turn = await chat(replicas[0]!.url, 'form-elsewhere', 'book');
      const asked = (await turn.next('question')).data;
      assert.deepEqual(asked.fields, { guests: { type: 'integer', minimum: 1, maximum: 8 } });
      // Round-robin: these land on each replica in turn, the first asked or not.
      const invalid = await fetch(`${balancer.url}api/approvals/${asked.questionId}`, json({ values: { guests: 12 } }));
      assert.equal(invalid.status, 400);
      const refusal = ((await invalid.json()) as { error: { code: string; message: string; param: string } }).error;
      assert.equal(refusal.code, 'invalid-request');
      assert.equal(refusal.param, 'values');
      assert.match(refusal.message, /does not fit: .*guests/);
      const words = await fetch(`${replicas[2]!.url}api/approvals/${asked.questionId}`, json({ answer: 'four' }));
      assert.equal(words.status, 400, 'a form is answered with values, on any replica');
      const answered = await fetch(`${balancer.url}api/approvals/${asked.questionId}`, json({ values: { guests: 4 } }));
      assert.equal(answered.status, 200, await answered.clone().text());
      assert.deepEqual(((await answered.json()) as { question: { values: unknown } }).question.values, { guests: 4 });
      const again = await fetch(`${balancer.url}api/approvals/${asked.questionId}`, json({ values: { guests: 5 } }));
      assert.equal(again.status, 409);
      assert.equal(
        (await turn.next('done')).data.text,
        `Heard: booked for 4 on ${pidOf(replicas[0]!)}`,
        'the call went on in the turn that asked, on the first replica',
      );
    });

    it("a task's question is answered on another replica and reaches the task on the replica running it", async () => {
      const stream = new AbortController();
      const events = sseReader(await fetch(`${replicas[2]!.url}api/events`, { signal: stream.signal }));
      const turn = await chat(replicas[0]!.url, 'task-question', 'survey');
      const taskId = (await turn.next('tool-result')).data.taskId as string;
      assert.ok(taskId, 'the call became a task');
      await turn.next('done');
      const seen = (await events.next('question-request')).data;
      assert.deepEqual([seen.session, seen.tool, seen.question], ['task-question', 'survey', 'Which quarter?']);
      const answered = await fetch(`${replicas[2]!.url}api/approvals/${seen.questionId}`, json({ answer: 'Q3' }));
      assert.equal(answered.status, 200, await answered.clone().text());
      let task: { status: string; result?: { data: string } } | undefined;
      for (let tries = 0; tries < 200 && task?.status !== 'completed'; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        task = ((await (await fetch(`${balancer.url}api/tasks/${taskId}`)).json()) as { task: typeof task }).task;
      }
      assert.equal(task?.status, 'completed');
      assert.equal(task?.result?.data, `surveyed Q3 on ${pidOf(replicas[0]!)}`);
      stream.abort();
    });

    it('/v1/responses goes on from a response another replica gave (previous_response_id)', async () => {
      const first = await fetch(`${replicas[0]!.url}v1/responses`, json({ model: 'riverse', input: 'the code is 7' }));
      assert.equal(first.status, 200, await first.clone().text());
      const { id } = (await first.json()) as { id: string };
      const second = await fetch(
        `${replicas[2]!.url}v1/responses`,
        json({ model: 'riverse', input: 'what is the code?', previous_response_id: id }),
      );
      assert.equal(second.status, 200, await second.clone().text());
      const sent = model.requests.at(-1)!.body.messages.map((message) => message.content);
      assert.ok(sent.includes('the code is 7'), JSON.stringify(sent));
    });

    it('/mcp (2026-07-28): an approval round asked by one replica is answered through another', async () => {
      const call = (base: string, params: Record<string, unknown>) =>
        mcp2026(base, 'tools/call', { name: 'note', arguments: { text: 'via mcp' }, ...params });
      const first = await call(replicas[0]!.url, {});
      assert.equal(first.result.resultType, 'input_required', JSON.stringify(first));
      const approved = await call(replicas[1]!.url, {
        inputResponses: { approve: { action: 'accept', content: { approve: true } } },
        requestState: first.result.requestState,
      });
      assert.equal(approved.result.isError, undefined, JSON.stringify(approved));
      assert.deepEqual(
        notes().filter((line) => line.startsWith('via mcp')),
        [`via mcp ${pidOf(replicas[1]!)}`],
      );
    });

    it("/mcp: a task's input request asked on one replica is shown and answered on another, and the task goes on with it where it runs", async () => {
      // Two SDK clients with their sessions on replicas A and B; a stateless one on C.
      const [onA, onB] = await Promise.all([sdkClient(replicas[0]!.url), sdkClient(replicas[1]!.url)]);
      const c = replicas[2]!.url;
      const listening = new AbortController();
      try {
        const created = await onA.request('tools/call', { name: 'survey', arguments: {} });
        assert.equal(created.resultType, 'task', JSON.stringify(created));
        // A stateless client's listen stream on C follows the task running on A.
        const listen = await postStateless(
          `${c}mcp`,
          'subscriptions/listen',
          { notifications: { taskIds: [created.taskId] } },
          listening.signal,
        );
        const heard = (async () => {
          const notices: Record<string, any>[] = [];
          for await (const message of streamedMessages(listen.body!)) {
            if (message.method !== 'notifications/tasks') continue;
            notices.push(message.params);
            if (message.params.status === 'completed') break;
          }
          return notices;
        })();
        let seen: Record<string, any> = {};
        for (let tries = 0; tries < 200 && seen.inputRequests === undefined; tries++) {
          seen = await onB.request('tasks/get', { taskId: created.taskId });
          if (seen.inputRequests === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.equal(seen.status, 'input_required', JSON.stringify(seen));
        const [key, request] = Object.entries(seen.inputRequests as Record<string, any>)[0]!;
        assert.deepEqual([request.method, request.params.message], ['elicitation/create', 'Which quarter?']);
        // A stateless client's tasks/get on a third replica shows the same request.
        const third = (await mcp2026(c, 'tasks/get', { taskId: created.taskId })).result;
        assert.deepEqual(third.inputRequests, seen.inputRequests);
        const answered = await onB.request('tasks/update', {
          taskId: created.taskId,
          inputResponses: { [key]: { action: 'accept', content: { answer: 'Q3' } } },
        });
        assert.equal(answered.resultType, 'complete');
        // A second answer to the same key, on another replica, is ignored: the first counts.
        const again = await mcp2026(c, 'tasks/update', {
          taskId: created.taskId,
          inputResponses: { [key]: { action: 'accept', content: { answer: 'Q4' } } },
        });
        assert.equal(again.result?.resultType, 'complete', JSON.stringify(again));
        let task: Record<string, any> = {};
        for (let tries = 0; tries < 200 && task.status !== 'completed'; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          task = (await mcp2026(balancer.url, 'tasks/get', { taskId: created.taskId })).result;
        }
        assert.equal(task.status, 'completed', JSON.stringify(task));
        assert.deepEqual(task.result.content, [{ type: 'text', text: `surveyed Q3 on ${pidOf(replicas[0]!)}` }]);
        assert.equal('inputRequests' in task, false);
        const notices = await heard;
        assert.deepEqual(
          Object.keys(notices.find((notice) => notice.status === 'input_required')?.inputRequests ?? {}),
          [key],
          'the stream on C was told of the question',
        );
        assert.deepEqual(notices.at(-1)?.result?.content, task.result.content, 'and of the end, with the result');
      } finally {
        listening.abort();
        await Promise.all([onA.close(), onB.close()]);
      }
    });

    it('/mcp (2025 revisions): a session begun through the balancer stays on its replica', async () => {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const rpc = (body: unknown, session?: string) =>
        fetch(`${balancer.url}mcp`, {
          method: 'POST',
          headers: {
            ...headers,
            ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }),
          },
          body: JSON.stringify(body),
        });
      const begun = await rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
      });
      assert.equal(begun.status, 200, await begun.clone().text());
      await begun.body?.cancel();
      const session = begun.headers.get('mcp-session-id')!;
      assert.ok(session);
      const notified = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
      assert.equal(notified.status, 202);
      for (let index = 0; index < 4; index++) {
        const listed = await rpc({ jsonrpc: '2.0', id: 2 + index, method: 'tools/list' }, session);
        assert.equal(
          listed.status,
          200,
          `request ${index} reached the session's replica: ${await listed.clone().text()}`,
        );
        assert.match(await listed.text(), /"note"/);
      }
    });

    it("a tool switched off on one replica is off on another, at once: its /api/tools, its event stream, its next turn's tools", async () => {
      const [a, b] = [replicas[0]!, replicas[1]!];
      const events = sseReader(await fetch(`${b.url}api/events`));
      const offered = async () => {
        const turn = await chat(b.url, `switched-${model.requests.length}`, 'hello');
        await turn.next('done');
        const names = (model.requests.at(-1)!.body as { tools?: { function: { name: string } }[] }).tools?.map(
          (tool) => tool.function.name,
        );
        return names?.includes('note') ?? false;
      };
      assert.equal(await offered(), true);
      const available = async (base: string) =>
        (
          (await (await fetch(`${base}api/tools`)).json()) as { tools: { name: string; available: boolean }[] }
        ).tools.find((tool) => tool.name === 'note')?.available;
      // Polled, bounded by the test's time: the store tells B (a NOTIFY, or the file's data version every 500 ms).
      const until = async (base: string, wanted: boolean) => {
        while ((await available(base)) !== wanted) await new Promise((resolve) => setTimeout(resolve, 50));
      };
      const toolsChanged = () => events.events.filter((event) => event.type === 'tools-changed');
      for (const [index, enabled] of [false, true].entries()) {
        const switched = await fetch(`${a.url}api/tools/note/enabled`, { ...json({ enabled }), method: 'PUT' });
        assert.equal(switched.status, 200, await switched.clone().text());
        await until(b.url, enabled);
        await until(replicas[2]!.url, enabled);
        // B's dashboard is told, as for a switch of its own: the one file reloaded.
        while (toolsChanged().length <= index) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.deepEqual(
          toolsChanged()[index]!.data.changes.map((change: { tools: string[] }) => change.tools),
          [['note']],
        );
        assert.equal(await offered(), enabled, `B's next turn ${enabled ? 'offers' : 'does not offer'} note`);
      }
      assert.equal(toolsChanged().length, 2, 'one reload per switch');
    });

    // A SQLite file has no server to restart: the case is PostgreSQL's.
    if (kind.restartable)
      it('the database restarted under load: turns fail with store-failed meanwhile, work after it, and no replica stops', async () => {
        assert.ok(shared.restart !== undefined);
        const outcomes: string[] = [];
        let stop = false;
        // Four clients sending turn after turn through the balancer, each in a session of its own.
        const load = Array.from({ length: 4 }, async (_, index) => {
          while (!stop) {
            try {
              const response = await fetch(
                `${balancer.url}api/chat`,
                json({ session: `load-${index}`, message: 'hello' }),
              );
              if (response.status !== 200) {
                const body = (await response.json()) as { error: { code: string } };
                outcomes.push(`${response.status} ${body.error.code}`);
              } else {
                const done = await sseReader(response).next('done');
                outcomes.push(done.data.error === undefined ? 'answer' : `done ${done.data.error.code}`);
              }
            } catch (error) {
              outcomes.push(`fetch ${(error as Error).message}`);
            }
          }
        });
        const answered = async (count: number) => {
          const from = outcomes.length;
          while (outcomes.slice(from).filter((outcome) => outcome === 'answer').length < count)
            await new Promise((resolve) => setTimeout(resolve, 50));
        };
        await answered(8);
        const before = outcomes.length;
        await shared.restart();
        const during = outcomes.slice(before);
        // Back: turns are answered again, by every replica, with no one restarted.
        await answered(12);
        stop = true;
        await Promise.all(load);
        // A turn that ended while the database was down could not release its session at once: it is
        // released with its replica's next beat (2 s), and meanwhile the session is busy.
        const wrong = outcomes.filter(
          (outcome) => !['answer', '503 store-failed', 'done store-failed', '409 session-busy'].includes(outcome),
        );
        assert.deepEqual(wrong, [], `every turn answered or failed with store-failed: ${JSON.stringify(outcomes)}`);
        assert.ok(
          during.some((outcome) => outcome !== 'answer'),
          `while the database was down, turns failed: ${JSON.stringify(during)}`,
        );
        for (const replica of replicas) assert.ok(replica.alive(), `${replica.id} still runs:\n${replica.output()}`);
      });

    it('a replica killed mid-turn: its turn is marked interrupted by another, and the session goes on elsewhere', async () => {
      const victim = replicas[2]!;
      const turn = await chat(victim.url, 'killed', 'note water the plants');
      const asked = await turn.next('approval-request');
      // Killed while the call waits, once what the turn said is stored (the model's request for the call).
      for (let stored = 0; stored < 2; await new Promise((resolve) => setTimeout(resolve, 20)))
        stored = ((await (await fetch(`${replicas[0]!.url}api/sessions/killed`)).json()) as { messages: unknown[] })
          .messages.length;
      await victim.kill();
      // Any replica may take the dead one's turn: the session is free again within a sweep.
      let answer: SseEvent | undefined;
      for (let attempt = 0; attempt < 100 && answer === undefined; attempt++) {
        const response = await fetch(`${balancer.url}api/chat`, json({ session: 'killed', message: 'are you there?' }));
        if (response.status === 409) {
          await response.body?.cancel();
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        assert.equal(response.status, 200);
        answer = await sseReader(response).next('done');
      }
      assert.equal(answer?.data.stopReason, 'answer', 'the session went on on another replica');
      // The model read why the call has no result: the approval still waits (an approval outlives its turn).
      const sent = model.requests.at(-1)!.body.messages as { role: string; content: string }[];
      assert.ok(
        sent.some((message) => message.role === 'tool'),
        JSON.stringify(sent),
      );
      const { traces } = (await (await fetch(`${replicas[0]!.url}api/traces/turns?session=killed`)).json()) as {
        traces: { stopReason: string; session: string }[];
      };
      assert.ok(
        traces.some((trace) => trace.stopReason === 'interrupted'),
        `an interrupted turn is listed: ${JSON.stringify(traces.map((trace) => trace.stopReason))}`,
      );
      // Answered now, on a live replica, the call runs once there: nothing is lost, nothing runs twice.
      const answered = await fetch(
        `${replicas[0]!.url}api/approvals/${asked.data.approvalId}`,
        json({ decision: 'approve' }),
      );
      assert.equal(answered.status, 200, await answered.clone().text());
      assert.deepEqual(
        notes().filter((line) => line.startsWith('water the plants')),
        [`water the plants ${pidOf(replicas[0]!)}`],
      );
      // Started again, the replica serves (a new process: a new id) and the balancer sends it requests.
      await victim.restart();
      const ids = new Set<string>();
      // HAProxy's check finds it up again within its interval (500 ms).
      for (let index = 0; index < 100 && !ids.has(victim.id); index++) {
        ids.add(((await (await fetch(`${balancer.url}api/status`)).json()) as { replica: { id: string } }).replica.id);
        if (index % 3 === 2) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(ids.has(victim.id), 'the restarted replica is back behind the balancer');
    });
  });
