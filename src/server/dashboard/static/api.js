// Talking to the service: the token (from #token=… once, then localStorage), the page's language
// (Accept-Language, so diagnostics and hints come back in it), JSON errors as ApiError.
import { language } from './i18n.js';
import { readEvents } from './sse.js';

const TOKEN_KEY = 'riverse.token';
let unauthorized = () => {};

export class ApiError extends Error {
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
  setToken(decodeURIComponent(match[1]));
  const rest = location.hash.slice(1).split('&').filter((part) => !part.startsWith('token=')).join('&');
  history.replaceState(null, '', `${location.pathname}${location.search}${rest === '' ? '' : `#${rest}`}`);
  return true;
}

export function token() {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return memoryToken;
  }
}

let memoryToken = '';
export function setToken(value) {
  memoryToken = value;
  try {
    localStorage.setItem(TOKEN_KEY, value);
  } catch {
    // storage refused: the token lasts the visit
  }
}

/** Called with no arguments whenever the service answers 401. */
export function onUnauthorized(listener) {
  unauthorized = listener;
}

function headers(json) {
  const out = { 'Accept-Language': language() };
  const value = token();
  if (value !== '') out.Authorization = `Bearer ${value}`;
  if (json) out['Content-Type'] = 'application/json';
  return out;
}

async function send(path, { method = 'GET', body, signal } = {}) {
  let response;
  try {
    response = await fetch(path, { method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body), signal, cache: 'no-store' });
  } catch (error) {
    if (error?.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    if (response.status === 401) unauthorized();
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

/** A JSON request; resolves with the parsed body (undefined for 204). */
export async function api(path, options = {}) {
  const response = await send(path, options);
  if (response.status === 204) return undefined;
  return response.json();
}

/** A request answered with server-sent events: `onEvent(type, data)` for each, until the stream ends. */
export async function stream(path, { onEvent, onOpen, ...options }) {
  const response = await send(path, options);
  onOpen?.();
  if (response.body === null) return;
  await readEvents(response.body, onEvent);
}
