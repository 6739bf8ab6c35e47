// Test helpers for the Iceberg worker side: engine batches from plain rows, DuckDB over written files, temp dirs.
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { floeSchema } from '../../catalog/iceberg/schema.js';
import type { IcebergSchema } from '../../catalog/iceberg/spec.js';
import type { Batch } from '../../engine/arrow/batch.js';
import { makeColumn } from '../../engine/arrow/column.js';
import type { Schema } from '../../engine/index.js';

/** A batch of `schema`'s columns from rows of plain values (dates as days, timestamps as micros, decimals scaled). */
export function batchOf(schema: Schema, rows: readonly (readonly unknown[])[]): Batch {
  const n = rows.length;
  const columns = schema.fields.map((f, c) => {
    const vals = rows.map((r) => r[c]);
    const valid = Uint8Array.from(vals, (v) => (v === null || v === undefined ? 0 : 1));
    switch (f.type.id) {
      case 'bool':
        return makeColumn(
          f.type,
          Uint8Array.from(vals, (v) => (v ? 1 : 0)),
          valid,
          n,
        );
      case 'int32':
      case 'date':
        return makeColumn(
          f.type,
          Int32Array.from(vals, (v) => Number(v ?? 0)),
          valid,
          n,
        );
      case 'utf8':
        return makeColumn(
          f.type,
          vals.map((v) => (v ?? '') as string),
          valid,
          n,
        );
      case 'int64':
      case 'decimal':
        if (vals.some((v) => typeof v === 'bigint'))
          return makeColumn(
            f.type,
            BigInt64Array.from(vals, (v) => BigInt((v ?? 0) as number)),
            valid,
            n,
          );
        return makeColumn(
          f.type,
          Float64Array.from(vals, (v) => Number(v ?? 0)),
          valid,
          n,
        );
      default:
        return makeColumn(
          f.type,
          Float64Array.from(vals, (v) => Number(v ?? 0)),
          valid,
          n,
        );
    }
  });
  return { schema, columns, length: n };
}

export function floeOf(schema: IcebergSchema): Schema {
  return floeSchema(schema).schema;
}

export async function* batchesOf(batches: readonly Batch[]): AsyncIterable<Batch> {
  for (const b of batches) yield b;
}

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `floe-${name}-`));
}

/** Every file under `dir`, recursively (relative paths, sorted). */
export function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix))) {
    const rel = prefix === '' ? e : `${prefix}/${e}`;
    if (statSync(join(dir, rel)).isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/** Runs `sql` in a fresh in-memory DuckDB; rows as JS objects (bigints as they come). */
export async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** `file:///abs` -> `/abs`. */
export const pathOfUri = (uri: string) => new URL(uri).pathname;
