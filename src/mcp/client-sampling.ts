import type { InputResponseView, Server } from '@modelcontextprotocol/server';
import {
  checkSampleResult,
  ContextUnavailable,
  type SampleRequest,
  type SampleResult,
} from '../tools/sample-request.ts';
import { checkRoots, type RootsList } from '../tools/client-roots.ts';

// A tool's `context.sample` and `context.roots()` served to an MCP client (decision 040): its model
// and its roots, asked as MCP asks them — a request to the client in the 2025 revisions, an
// embedded request of an input-required round in 2026-07-28 (input-rounds.ts). A client that did not
// declare the capability is not asked: the tool gets an error that says so.

/** How long the client's model has to reply unless the tool says. */
const SAMPLE_TIMEOUT_MS = 60_000;
/** How long a client has to list its roots unless the tool says. */
const ROOTS_TIMEOUT_MS = 30_000;

/** The request as MCP's `sampling/createMessage` takes it (the tool's own key and time limit stay here). */
export function samplingParams(request: SampleRequest) {
  const { key: _key, timeoutMs: _timeout, ...params } = request;
  return params;
}

export function noSampling(tool: string): ContextUnavailable {
  return new ContextUnavailable(
    `${tool} asked the MCP client's model (context.sample), and this client offers no sampling (it declared no sampling capability): use a client that offers it, or run ${tool} in a Riverse chat`,
  );
}

export function noRoots(tool: string): ContextUnavailable {
  return new ContextUnavailable(
    `${tool} asked for the MCP client's roots (context.roots), and this client offers none (it declared no roots capability): use a client that lists roots, or pass the folder as a parameter`,
  );
}

/** A 2025 client's model, asked by a request of the server's. */
export async function sampleOfClient(
  server: Server,
  tool: string,
  request: SampleRequest,
  signal: AbortSignal,
): Promise<SampleResult> {
  if (server.getClientCapabilities()?.sampling === undefined) throw noSampling(tool);
  const reply = await server.createMessage(samplingParams(request), {
    signal,
    timeout: request.timeoutMs ?? SAMPLE_TIMEOUT_MS,
  });
  return fittingReply(tool, reply);
}

/** A 2025 client's roots, asked by a request of the server's. */
export async function rootsOfClient(
  server: Server,
  tool: string,
  options: { timeoutMs?: number },
  signal: AbortSignal,
): Promise<RootsList> {
  if (server.getClientCapabilities()?.roots === undefined) throw noRoots(tool);
  const listed = await server.listRoots(undefined, { signal, timeout: options.timeoutMs ?? ROOTS_TIMEOUT_MS });
  return fittingRoots(tool, listed.roots);
}

/** A round's answer to a sampling request, or undefined when it is not one that fits (asked again). */
export function sampledView(view: InputResponseView): SampleResult | undefined {
  if (view.kind !== 'sampling') return undefined;
  const reply = checkSampleResult(view.result);
  return typeof reply === 'string' ? undefined : reply;
}

/** A round's answer to a roots request, or undefined when it is not one that fits (asked again). */
export function rootsView(view: InputResponseView): RootsList | undefined {
  if (view.kind !== 'roots') return undefined;
  const roots = checkRoots(view.roots);
  return typeof roots === 'string' ? undefined : listOf(roots);
}

function fittingReply(tool: string, reply: unknown): SampleResult {
  const checked = checkSampleResult(reply);
  if (typeof checked === 'string')
    throw new Error(`the MCP client's reply to ${tool}'s context.sample does not fit: ${checked}`);
  return checked;
}

function fittingRoots(tool: string, roots: unknown): RootsList {
  const checked = checkRoots(roots);
  if (typeof checked === 'string') throw new Error(`the MCP client's roots for ${tool} do not fit: ${checked}`);
  return listOf(checked);
}

function listOf(roots: RootsList['roots']): RootsList {
  return roots.length === 0 ? { roots, reason: 'the MCP client lists no roots' } : { roots };
}
