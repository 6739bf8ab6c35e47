// `writeParquetFile`: columns of plain values -> one Parquet file (zstd, statistics on, bounded row groups).
import { Compression, EnabledStatistics, Table, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import { type ColumnInput, toArrowIPC } from '../../arrow/to-arrow.js';
import { objectStoreFor } from '../object-store/object-store-for.js';

export interface ParquetWriteOptions {
  /** Rows per row group; default 122,880 (DuckDB's). */
  readonly rowGroupRows?: number;
  readonly compression?: 'zstd' | 'snappy' | 'none';
}

const CODECS = { zstd: Compression.ZSTD, snappy: Compression.SNAPPY, none: Compression.UNCOMPRESSED } as const;

/**
 * Writes `columns` to `path` (a location: see `ObjectStore`), creating parent folders. The file appears whole
 * (`ObjectStore.put`), so a reader never sees half of it.
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
  await objectStoreFor(path).put(path, bytes);
}

export type { ColumnInput };
