// `workerCatalogWrites`: the engine's DDL hooks in a query worker, each one a call to the main thread's catalogs.
import { type CatalogWrites, EngineError, type TableProvider } from '../../engine/index.js';
import { buildProvider } from '../providers/registry.js';
import { callWrite } from './write-channel.js';
import type { WriteCall, WriteReply } from './write-protocol.js';

/** DDL through the writes channel (`connectWrites` must have been called on this thread). */
export function workerCatalogWrites(): CatalogWrites {
  return {
    async createSchema(name, ifNotExists) {
      await call({ op: 'create_schema', name, ifNotExists });
    },
    async createTable(definition, ifNotExists): Promise<TableProvider | null> {
      const reply = await call({
        op: 'create_table',
        name: definition.name,
        columns: definition.schema.fields.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable })),
        partitionBy: definition.partitionBy,
        ifNotExists,
      });
      if (reply.existed === true || reply.entry === undefined) return null;
      return buildProvider(reply.entry);
    },
    async dropTable(name, ifExists) {
      await call({ op: 'drop_table', name, ifExists });
    },
  };
}

/** Sends `c`; a refusal is raised as the engine error of its kind (a user mistake stays a 400). */
export async function call(c: WriteCall): Promise<Extract<WriteReply, { ok: true }>> {
  const reply = await callWrite(c);
  if (!reply.ok) throw new EngineError(reply.kind, reply.message);
  return reply;
}
