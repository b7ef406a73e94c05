/**
 * OLLAMA_HOST as Ollama reads it: `host` or `host:port` (port 11434 by default), or a URL (its
 * scheme's default port); 0.0.0.0, the address it listens on, means this machine.
 */
export function ollamaHost(value: string | undefined): string {
  const text = (value ?? '').trim() || '127.0.0.1';
  const hasScheme = /^https?:\/\//.test(text);
  const url = new URL(hasScheme ? text : `http://${text}`);
  if (!hasScheme && url.port === '') url.port = '11434';
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  return url.origin;
}
