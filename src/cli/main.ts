#!/usr/bin/env node
// The `riverse` command. Node's compile cache (V8 code, kept in the OS temp folder) is turned on
// before the program is imported: every start after the first is about a quarter faster.
import { enableCompileCache } from 'node:module';

enableCompileCache();
// A pipe closed early (`| head`) ends the command quietly, not with an EPIPE stack.
(await import('./closed-output.ts')).endQuietlyOnClosedOutput();
// `serve` starts again in place with a young generation sized for a long-running service (decision 019).
(await import('./serve/service-heap.ts')).restartForService(process.argv.slice(2));
// A cold start: the tool loaders start now, while the program loads (decision 013).
await (await import('./early-loaders.ts')).startLoadersOnColdStart(process.argv.slice(2));
await import('./program.ts');
