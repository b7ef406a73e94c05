// @ts-check
// Talking to the service: the token (from #token=… once, then localStorage), the page's language
// (Accept-Language, so diagnostics and hints come back in it), JSON errors as ApiError.
import { language } from './i18n.js';
import { readEvents } from './sse.js';

const TOKEN_KEY = 'riverse.token';
/** @type {(sent: string) => void} */
let unauthorized = () => {};

/**
 * A request's options: a `body` is sent as JSON.
 * @typedef {{ method?: string, body?: unknown, signal?: AbortSignal }} RequestOptions
 */

/** The service's refusal: its HTTP status (0 when it could not be reached) and stable code. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Takes `#token=…` out of the address (into storage): it must not stay in the bar or the history. True when there was one. */
export function takeTokenFromAddress() {
  const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (match === null) return false;
  setToken(decodeURIComponent(match[1] ?? ''));
  const rest = location.hash
    .slice(1)
    .split('&')
    .filter((part) => !part.startsWith('token='))
    .join('&');
  history.replaceState(null, '', `${location.pathname}${location.search}${rest === '' ? '' : `#${rest}`}`);
  return true;
}

function token() {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return memoryToken;
  }
}

let memoryToken = '';
/** @param {string} value */
export function setToken(value) {
  memoryToken = value;
  try {
    localStorage.setItem(TOKEN_KEY, value);
  } catch {
    // storage refused: the token lasts the visit
  }
}

/**
 * Called whenever the service answers 401, with the token the refused request carried ('' for none).
 * @param {(sent: string) => void} listener
 */
export function onUnauthorized(listener) {
  unauthorized = listener;
}

/**
 * @param {boolean} json
 * @param {string} value the token to send ('' for none)
 */
function headers(json, value) {
  /** @type {Record<string, string>} */
  const out = { 'Accept-Language': language() };
  if (value !== '') out.Authorization = `Bearer ${value}`;
  if (json) out['Content-Type'] = 'application/json';
  return out;
}

/**
 * @param {string} path
 * @param {RequestOptions} [options]
 */
async function send(path, { method = 'GET', body, signal } = {}) {
  let response;
  const sent = token();
  try {
    response = await fetch(path, {
      method,
      headers: headers(body !== undefined, sent),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(0, 'network', error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    if (response.status === 401) unauthorized(sent);
    let code = `http-${response.status}`;
    let message = response.statusText;
    try {
      const payload = await response.json();
      code = payload?.error?.code ?? code;
      message = payload?.error?.message ?? message;
    } catch {
      // not JSON: the status says it
    }
    throw new ApiError(response.status, code, message);
  }
  return response;
}

/**
 * A JSON request; resolves with the parsed body (undefined for 204): `unknown`, unless the caller
 * declares the shape it reads (docs/server-api.md), which is trusted, not checked.
 * @template [T=unknown]
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<T>}
 */
export async function api(path, options = {}) {
  const response = await send(path, options);
  if (response.status === 204) return /** @type {T} */ (undefined);
  return response.json();
}

/**
 * A request answered with server-sent events: `onEvent(type, data)` for each, until the stream ends.
 * @param {string} path
 * @param {RequestOptions & { onEvent: (type: string, data: unknown) => void, onOpen?: () => void }} options
 */
export async function stream(path, { onEvent, onOpen, ...options }) {
  const response = await send(path, options);
  onOpen?.();
  if (response.body === null) return;
  await readEvents(response.body, onEvent);
}

/**
 * Whether `error` is a request's end by its signal (a Stop button, another page opened).
 * @param {unknown} error
 */
export function isAbort(error) {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/**
 * What went wrong, for people: the error's message.
 * @param {unknown} error
 */
export function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}
