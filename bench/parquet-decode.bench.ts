// Parquet decode: lineitem SF0.1 (~600 k rows, 16 columns) read whole into memory, and one or four columns scanned.
import { loadParquetTable } from '../engine/index.js';
import { drain, microContext, microSuite } from './lib/micro-suite.js';

export default async function parquetDecodeBench(): Promise<void> {
  const { data, files } = await microContext();
  const lineitem = [...data.tables.get('lineitem')!];
  await microSuite('parquet-decode', {
    'load all 16 columns (loadParquetTable)': () => loadParquetTable(lineitem),
    'scan 1 decimal column': () => drain(files, 'SELECT l_extendedprice FROM lineitem'),
    'scan 4 columns (int, decimal, date, text)': () =>
      drain(files, 'SELECT l_orderkey, l_extendedprice, l_shipdate, l_shipmode FROM lineitem'),
    'scan the text column l_comment': () => drain(files, 'SELECT l_comment FROM lineitem'),
  });
}
