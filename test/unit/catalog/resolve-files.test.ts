// `file:` sources: a file, a folder (recursive), a glob, relative and file:// forms, and what matches nothing.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DatasetSourceError, resolveFiles } from '../../../catalog/resolve-files.js';
import { makeTempDir } from '../../helpers/fixtures.js';

let root: string;

before(async () => {
  root = await makeTempDir();
  for (const f of ['t/a.parquet', 't/b.parquet', 't/sub/c.parquet', 't/notes.txt', 'empty/readme.md', 'one.pq']) {
    await mkdir(join(root, f, '..'), { recursive: true });
    await writeFile(join(root, f), '');
  }
});

describe('resolveFiles', () => {
  it('takes a single file as is, whatever its extension', async () => {
    assert.deepEqual(await resolveFiles('file:one.pq', root), [join(root, 'one.pq')]);
  });

  it('takes every *.parquet below a folder, sorted', async () => {
    assert.deepEqual(
      await resolveFiles('file:t/', root),
      ['t/a.parquet', 't/b.parquet', 't/sub/c.parquet'].map((f) => join(root, f)),
    );
  });

  it('takes an absolute folder written with a trailing slash', async () => {
    assert.deepEqual(
      await resolveFiles(`file:${root}/t/`, '/elsewhere'),
      ['t/a.parquet', 't/b.parquet', 't/sub/c.parquet'].map((f) => join(root, f)),
    );
  });

  it('expands globs', async () => {
    assert.deepEqual(await resolveFiles('file:t/*.parquet', root), [
      join(root, 't/a.parquet'),
      join(root, 't/b.parquet'),
    ]);
    assert.deepEqual(await resolveFiles(`file:${root}/t/**/c.parquet`, '/elsewhere'), [join(root, 't/sub/c.parquet')]);
  });

  it('accepts absolute paths and file:// URLs', async () => {
    assert.deepEqual(await resolveFiles(`file:${join(root, 'one.pq')}`, '/elsewhere'), [join(root, 'one.pq')]);
    assert.deepEqual(await resolveFiles(pathToFileURL(join(root, 'one.pq')).href, '/elsewhere'), [
      join(root, 'one.pq'),
    ]);
  });

  it('names what matched nothing', async () => {
    await assert.rejects(
      resolveFiles('file:missing.parquet', root),
      (e: Error) => e instanceof DatasetSourceError && /no such file or folder: .*missing\.parquet$/.test(e.message),
    );
    await assert.rejects(resolveFiles('file:empty', root), /no Parquet files match .*empty\/\*\*\/\*\.parquet/);
    await assert.rejects(resolveFiles('file:t/*.csv', root), /no Parquet files match .*t\/\*\.csv/);
  });
});
