import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectLanguage } from './detect-language.ts';

describe('detectLanguage', () => {
  it('Chinese: Han characters without kana', () => {
    assert.equal(detectLanguage('东京今天天气怎么样？'), 'zh');
    assert.equal(detectLanguage('東京今天天氣怎麼樣？'), 'zh', 'traditional characters');
    assert.equal(detectLanguage('帮我查一下 Tokyo 的天气'), 'zh', 'mixed with Latin');
  });

  it('Japanese: any kana, with or without kanji', () => {
    assert.equal(detectLanguage('東京の今日の天気は？'), 'ja');
    assert.equal(detectLanguage('こんにちは'), 'ja');
    assert.equal(detectLanguage('テスト'), 'ja');
    assert.equal(detectLanguage('ﾃｽﾄ'), 'ja', 'half-width katakana');
    assert.equal(detectLanguage('Tokyo の天気'), 'ja');
  });

  it('English: everything else', () => {
    assert.equal(detectLanguage("What's the weather in Tokyo?"), 'en');
    assert.equal(detectLanguage(''), 'en');
    assert.equal(detectLanguage('👍 42'), 'en');
    assert.equal(detectLanguage('Quel temps fait-il à Paris ?'), 'en');
  });
});
