import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LANGUAGES, type Language } from '../../core/language.ts';
import { renderPhrase } from '../../core/phrase.ts';
import { mcpPhrase } from '../mcp-client-text.ts';

/** A sign-in waiting for the person: the link to open, for one MCP server. */
export interface PendingSignIn {
  server: string;
  url: string;
  startedAt: string;
}

/** How long a sign-in link stays awaited: long enough to find a password, short enough not to be forgotten. */
const SIGN_IN_TIMEOUT_MS = 10 * 60_000;

interface Waiting {
  sign: PendingSignIn;
  resolve: (params: URLSearchParams) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The sign-ins under way in this process and the loopback page that ends them (RFC 8252 §7.3:
 * `http://127.0.0.1:<port>/callback`, one port for every server, opened only when a server first
 * asks for a sign-in). Each sign-in is keyed by its OAuth `state`, so an answer meant for another
 * sign-in (or forged) ends none. Listeners — the terminal, `/api/mcp/sign-ins`, the dashboard —
 * hear of each link when it is made.
 */
export class SignIns {
  readonly #waiting = new Map<string, Waiting>();
  readonly #listeners = new Set<(sign: PendingSignIn) => void>();
  #server: Server | undefined;
  #port: number | undefined;
  #listening: Promise<number> | undefined;

  /** The redirect URI while the callback page listens; a placeholder before (never sent: see listen()). */
  get redirectUrl(): string {
    return `http://127.0.0.1:${this.#port ?? 0}/callback`;
  }

  /** Opens the callback page (once); resolves with its port. */
  listen(): Promise<number> {
    this.#listening ??= new Promise<number>((resolve, reject) => {
      const server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        const language = pageLanguage(request.headers['accept-language']);
        const waiting = this.#waiting.get(url.searchParams.get('state') ?? '');
        let text: string;
        if (url.pathname !== '/callback' || waiting === undefined) {
          text = renderPhrase(mcpPhrase('mcp.sign-in.page-unknown'), language)!;
          response.statusCode = 404;
        } else {
          const error = url.searchParams.get('error');
          text = renderPhrase(
            error === null
              ? mcpPhrase('mcp.sign-in.page-done', { server: waiting.sign.server })
              : mcpPhrase('mcp.sign-in.page-refused', { error: error.slice(0, 100) }),
            language,
          )!;
          this.#settle(url.searchParams.get('state')!);
          waiting.resolve(url.searchParams);
        }
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.setHeader('cache-control', 'no-store');
        response.end(`<!doctype html><meta charset="utf-8"><title>Riverse</title><p>${escapeHtml(text)}</p>\n`);
      });
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        this.#server = server;
        this.#port = (server.address() as AddressInfo).port;
        resolve(this.#port);
      });
    });
    return this.#listening;
  }

  /** A fresh `state` for one authorization request. */
  newState(): string {
    return randomBytes(24).toString('base64url');
  }

  /** Records the link for `server` and tells the listeners; the sign-in is awaited with wait(state). */
  begin(server: string, url: URL, state: string): void {
    for (const [key, waiting] of this.#waiting)
      if (waiting.sign.server === server) {
        // A server asks again (a retry, a step-up): only the newest link is good.
        this.#settle(key);
        waiting.reject(new Error(`a newer sign-in link for ${server} replaced this one`));
      }
    const sign: PendingSignIn = { server, url: url.href, startedAt: new Date().toISOString() };
    let resolve!: (params: URLSearchParams) => void;
    let reject!: (error: Error) => void;
    const done = new Promise<URLSearchParams>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    done.catch(() => {}); // awaited by wait(), or by nobody when the server is closed first
    const timer = setTimeout(() => {
      this.#settle(state);
      reject(new Error(`nobody signed in to ${server} within ${SIGN_IN_TIMEOUT_MS / 60_000} minutes`));
    }, SIGN_IN_TIMEOUT_MS);
    timer.unref();
    this.#waiting.set(state, { sign, resolve, reject, timer });
    this.#done.set(state, done);
    for (const listener of this.#listeners) listener(sign);
  }

  readonly #done = new Map<string, Promise<URLSearchParams>>();

  /** The callback's parameters (`code`, `state`, `iss`, or `error`) once the person has signed in. */
  wait(state: string, signal?: AbortSignal): Promise<URLSearchParams> {
    const done = this.#done.get(state);
    if (done === undefined) return Promise.reject(new Error('no sign-in is under way'));
    if (signal === undefined) return done;
    return Promise.race([
      done,
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason ?? new Error('aborted')), { once: true }),
      ),
    ]);
  }

  /** The state of the sign-in under way for `server`, if any. */
  stateOf(server: string): string | undefined {
    for (const [state, waiting] of this.#waiting) if (waiting.sign.server === server) return state;
    return undefined;
  }

  /** Ends the sign-in under way for `server` (it was closed). */
  cancel(server: string): void {
    const state = this.stateOf(server);
    if (state === undefined) return;
    const waiting = this.#waiting.get(state)!;
    this.#settle(state);
    waiting.reject(new Error(`${server} was closed`));
  }

  pending(): PendingSignIn[] {
    return [...this.#waiting.values()].map((waiting) => waiting.sign);
  }

  onSignIn(listener: (sign: PendingSignIn) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops listening (tests). */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#listening = undefined;
    this.#port = undefined;
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  }

  #settle(state: string): void {
    const waiting = this.#waiting.get(state);
    if (waiting !== undefined) clearTimeout(waiting.timer);
    this.#waiting.delete(state);
    // The promise stays in #done a moment for a wait() that comes after the callback.
    setTimeout(() => this.#done.delete(state), 60_000).unref();
  }
}

/** The process's sign-ins: one callback page, one list, whoever shows it. */
export const signIns = new SignIns();

function pageLanguage(header: string | undefined): Language {
  for (const part of (header ?? '').split(',')) {
    const tag = part.trim().slice(0, 2).toLowerCase();
    if ((LANGUAGES as readonly string[]).includes(tag)) return tag as Language;
  }
  return 'en';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
