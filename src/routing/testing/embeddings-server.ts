// A local server that speaks OpenAI's embeddings protocol (POST /v1/embeddings), for tests only.
// Its vectors are bags of concepts: words of one concept (car, automobile, vehicle) land on the same
// dimension, so that a request worded unlike a tool's text is near it, as with a real model.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbeddingsTestServer {
  /** Ends in `/v1`. */
  url: string;
  /** The texts of each request, in order. */
  requests: string[][];
  /** Answers every request with this status from now on (0: answer normally). */
  failWith(status: number): void;
  close(): Promise<void>;
}

const CONCEPTS: string[][] = [
  ['car', 'automobile', 'vehicle', 'auto', 'cars', 'jalopy', 'wheels'],
  ['rent', 'rental', 'hire', 'lease'],
  ['song', 'music', 'tune', 'melody', 'songs'],
  ['money', 'cash', 'currency', 'funds'],
  ['doctor', 'physician', 'medic'],
];
const DIMENSIONS = 64;

export function conceptVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((words) => words.includes(word));
    const dimension = concept >= 0 ? concept : CONCEPTS.length + (hash(word) % (DIMENSIONS - CONCEPTS.length));
    vector[dimension]! += 1;
  }
  return vector;
}

function hash(word: string): number {
  let value = 0;
  for (const char of word) value = (value * 31 + char.charCodeAt(0)) >>> 0;
  return value;
}

export async function startEmbeddingsTestServer(): Promise<EmbeddingsTestServer> {
  const requests: string[][] = [];
  let failing = 0;
  const server = createServer(async (request, response) => {
    const body = JSON.parse(await read(request)) as { input: string[] | string; model: string };
    const input = Array.isArray(body.input) ? body.input : [body.input];
    requests.push(input);
    if (request.method !== 'POST' || request.url !== '/v1/embeddings' || failing !== 0) {
      response
        .writeHead(failing || 404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'no' } }));
      return;
    }
    const data = input.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) }));
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ object: 'list', data, model: body.model }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    failWith: (status) => void (failing = status),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function read(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
