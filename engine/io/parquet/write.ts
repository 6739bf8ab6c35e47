// `writeParquetFile`: columns of plain values -> one Parquet file (zstd, statistics on, bounded row groups).
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Compression, EnabledStatistics, Table, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { type ColumnInput, toArrowIPC } from '../../arrow/to-arrow.js';

export interface ParquetWriteOptions {
  /** Rows per row group; default 122,880 (DuckDB's). */
  readonly rowGroupRows?: number;
  readonly compression?: 'zstd' | 'snappy' | 'none';
}

const CODECS = { zstd: Compression.ZSTD, snappy: Compression.SNAPPY, none: Compression.UNCOMPRESSED } as const;

/**
 * Writes `columns` to `path`, creating parent folders. The file appears atomically (written to a
 * temporary name, then renamed), so a reader never sees half a file.
 */
export async function writeParquetFile(
  path: string,
  columns: readonly ColumnInput[],
  options: ParquetWriteOptions = {},
): Promise<void> {
  const props = new WriterPropertiesBuilder()
    .setCompression(CODECS[options.compression ?? 'zstd'])
    .setMaxRowGroupSize(options.rowGroupRows ?? 122_880)
    .setStatisticsEnabled(EnabledStatistics.Chunk)
    .build();
  const bytes = writeParquet(Table.fromIPCStream(toArrowIPC(columns)), props);
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

export type { ColumnInput };
