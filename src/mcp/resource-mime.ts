// A resource part's MIME type when its tool gave none: MCP's embedded resource carries one, so a
// client can show or save it (decision 027). Read from the URI's extension; else plain text for
// text and bytes for a blob.

const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xml: 'application/xml',
  json: 'application/json',
  jsonl: 'application/jsonl',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/typescript',
  py: 'text/x-python',
  sh: 'application/x-sh',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

/** The MIME type for `uri`, from its extension; `fallback` when it has none known. */
export function mimeTypeOf(uri: string, fallback: string): string {
  let path = uri;
  try {
    path = new URL(uri).pathname;
  } catch {
    // Not a URL: its own text is the path.
  }
  const match = /\.([A-Za-z0-9]+)$/.exec(path);
  return (match === null ? undefined : BY_EXTENSION[match[1]!.toLowerCase()]) ?? fallback;
}
