// The core alone, for bench/serve-load.ts: the same turn as a /v1 request makes — Assistant.complete
// with the model's replies not streamed, the same tool file, traces in a store — called in this
// process by `BENCH_CONNECTIONS` loops for `BENCH_DURATION_S`, without HTTP in front. Prints one
// line of JSON: turns, seconds, p50, p99 (ms) and this process's CPU time (ms). Not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Assistant } from '../src/assistant/assistant.ts';
import { createOpenAICompatibleModel } from '../src/models/providers/openai/openai-compatible.ts';
import { SqliteStore } from '../src/store/sqlite-store.ts';
import { ToolRegistry } from '../src/tool-runtime/tool-registry.ts';

const env = (name: string) =>
  process.env[name] ?? (process.stderr.write(`${name} is not set: run through bench/serve-load.ts\n`), process.exit(2));
const connections = Number(env('BENCH_CONNECTIONS'));
const seconds = Number(env('BENCH_DURATION_S'));
const dataDir = mkdtempSync(join(tmpdir(), 'riverse-serve-load-core-'));
const store = SqliteStore.open(dataDir);
const registry = await ToolRegistry.load({ folders: [env('BENCH_TOOLS')], config: {} });
const assistant = new Assistant({
  model: createOpenAICompatibleModel({ model: 'bench-model', baseUrl: env('BENCH_MODEL_URL'), apiKey: 'bench' }),
  registry,
  store,
});
const messages = [{ role: 'user' as const, content: "What's the weather in Tokyo?" }];
const turn = () => assistant.complete({ messages, session: 'openai', stream: false });

for (const end = performance.now() + 3_000; performance.now() < end; )
  await Promise.all(Array.from({ length: connections }, turn));
const latencies: number[] = [];
let errors = 0;
const cpu = process.cpuUsage();
const started = performance.now();
const end = started + seconds * 1000;
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < end) {
      const start = performance.now();
      const result = await turn();
      if (result.stopReason === 'answer') latencies.push(performance.now() - start);
      else errors++;
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? Number.NaN;
console.log(
  JSON.stringify({
    turns: latencies.length,
    seconds: elapsed,
    p50: at(0.5),
    p99: at(0.99),
    errors,
    cpuMs: (used.user + used.system) / 1000,
  }),
);
await store.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
