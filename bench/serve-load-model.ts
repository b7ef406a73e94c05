// The scripted model server of bench/serve-load.ts, run as its own process so that its work is
// not counted in the service's or the load generator's: every conversation is one tool turn —
// a call to `echo` first, then, once the tool's result is in the conversation, the answer. It
// prints its base URL, and writes the first request of each kind it gets (raw, byte for byte) to
// BENCH_CAPTURE, so that the bare client can send exactly what the service sent; each answer after
// BENCH_MODEL_DELAY_MS. Not a test.
import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startOpenAITestServer } from '../src/models/testing/openai-wire.ts';

const capture = process.env.BENCH_CAPTURE;
// How long the model takes per request: a real one takes longer still, and the bare client waits as long.
const delayMs = Number(process.env.BENCH_MODEL_DELAY_MS ?? 0);
const captured: { call?: string; answer?: string } = {};
const server = await startOpenAITestServer(async (request) => {
  if (delayMs > 0) await sleep(delayMs);
  const answered = request.body.messages.some((message) => message.role === 'tool');
  const kind = answered ? 'answer' : 'call';
  if (capture !== undefined && captured[kind] === undefined) {
    captured[kind] = request.raw;
    if (captured.call !== undefined && captured.answer !== undefined) writeFileSync(capture, JSON.stringify(captured));
  }
  return answered
    ? { text: 'It is 16 °C and partly cloudy in Tokyo.' }
    : { toolCalls: [{ name: 'echo', arguments: { text: 'Tokyo' } }] };
});
// The server keeps every request for tests to read; here that would only grow.
setInterval(() => (server.requests.length = 0), 500);
console.log(server.url);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
