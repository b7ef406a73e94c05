import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ollamaHost } from './ollama-host.ts';

test('OLLAMA_HOST is read as Ollama reads it', () => {
  assert.equal(ollamaHost(undefined), 'http://127.0.0.1:11434');
  assert.equal(ollamaHost('0.0.0.0'), 'http://127.0.0.1:11434');
  assert.equal(ollamaHost('example.com:8080'), 'http://example.com:8080');
  assert.equal(ollamaHost('https://ollama.example.com'), 'https://ollama.example.com');
});
