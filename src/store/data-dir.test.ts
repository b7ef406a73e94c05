import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { defaultDataDir } from './data-dir.ts';

describe('defaultDataDir', () => {
  it('prefers $RIVERSE_DATA_DIR, made absolute', () => {
    assert.equal(
      defaultDataDir({ RIVERSE_DATA_DIR: '/srv/riverse', XDG_DATA_HOME: '/x' }, 'linux'),
      resolve('/srv/riverse'),
    );
    assert.equal(defaultDataDir({ RIVERSE_DATA_DIR: 'rel/dir' }, 'linux'), resolve('rel/dir'));
    assert.equal(defaultDataDir({ RIVERSE_DATA_DIR: 'C:\\data' }, 'win32'), resolve('C:\\data'));
  });

  it('then $XDG_DATA_HOME/riverse, ignoring a relative one as the XDG spec says', () => {
    assert.equal(defaultDataDir({ XDG_DATA_HOME: '/home/u/.data', HOME: '/home/u' }, 'linux'), '/home/u/.data/riverse');
    assert.equal(
      defaultDataDir({ XDG_DATA_HOME: 'relative', HOME: '/home/u' }, 'darwin'),
      '/home/u/.local/share/riverse',
    );
  });

  it('then ~/.local/share/riverse', () => {
    assert.equal(defaultDataDir({ HOME: '/home/u' }, 'linux'), '/home/u/.local/share/riverse');
    assert.equal(defaultDataDir({ RIVERSE_DATA_DIR: '' }, 'linux'), `${homedir()}/.local/share/riverse`);
  });

  it('on Windows, %LOCALAPPDATA%\\riverse', () => {
    assert.equal(
      defaultDataDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', XDG_DATA_HOME: '/x' }, 'win32'),
      'C:\\Users\\u\\AppData\\Local\\riverse',
    );
    assert.equal(defaultDataDir({ USERPROFILE: 'C:\\Users\\u' }, 'win32'), 'C:\\Users\\u\\AppData\\Local\\riverse');
  });

  it('reads process.env by default', () => {
    assert.equal(defaultDataDir(), defaultDataDir(process.env));
  });
});
