// Result serializers (server/serialize): JSON and CSV of 100 k lineitem rows, batches already in memory.
import type { Batch, Schema } from '../engine/index.js';
import { createSerializer, type ResultFormat } from '../server/serialize/serializer.js';
import { microContext, microSuite } from './lib/micro-suite.js';

export default async function serializeBench(): Promise<void> {
  const { memory } = await microContext();
  const numbers = await collect('SELECT l_orderkey, l_partkey, l_quantity, l_extendedprice, l_discount FROM lineitem');
  const mixed = await collect('SELECT * FROM lineitem');
  const serialize =
    (format: ResultFormat, { schema, batches }: { schema: Schema; batches: Batch[] }) =>
    async () => {
      const s = createSerializer(format);
      let bytes = s.begin(schema).length;
      for (const batch of batches) bytes += s.batch(batch).length;
      return bytes + s.end().length;
    };
  await microSuite('serialize', {
    'JSON, 100 k rows × 5 numeric columns': serialize('json', numbers),
    'CSV, 100 k rows × 5 numeric columns': serialize('csv', numbers),
    'JSON, 100 k rows × 16 columns (all of lineitem)': serialize('json', mixed),
    'CSV, 100 k rows × 16 columns (all of lineitem)': serialize('csv', mixed),
  });

  async function collect(sql: string): Promise<{ schema: Schema; batches: Batch[] }> {
    const result = await memory.execute(`${sql} LIMIT 100000`);
    const batches: Batch[] = [];
    for await (const batch of result.batches) batches.push(batch);
    return { schema: result.schema, batches };
  }
}
