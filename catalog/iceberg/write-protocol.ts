// The messages by which a query worker asks the main thread to change an Iceberg catalog (DDL and commits).
import type { DataType, EngineErrorKind, PartitionField, WriteMode } from '../../engine/index.js';
import type { DataFile } from './spec.js';
import type { IcebergTableEntry } from './table-entry.js';

/**
 * What a worker asks. Names are as the SQL wrote them (`[catalog, schema, table]`). `commit` publishes data files a
 * worker has written under the table's location as one new snapshot of `table` (the entry name it wrote through).
 */
export type WriteCall =
  | { readonly op: 'create_schema'; readonly name: readonly string[]; readonly ifNotExists: boolean }
  | {
      readonly op: 'create_table';
      readonly name: readonly string[];
      readonly columns: readonly { readonly name: string; readonly type: DataType; readonly nullable: boolean }[];
      readonly partitionBy: readonly PartitionField[];
      readonly ifNotExists: boolean;
    }
  | { readonly op: 'drop_table'; readonly name: readonly string[]; readonly ifExists: boolean }
  | {
      readonly op: 'commit';
      readonly table: string;
      readonly mode: WriteMode;
      readonly files: readonly DataFile[];
      /** An overwrite's replaced files: the paths of the snapshot it read (`CommitOptions.replaces`). */
      readonly replaces?: readonly string[];
    };

/**
 * The answer: `entry` is the table as published after the change (create_table, commit; absent when IF NOT EXISTS
 * found the table, or for a drop or a schema); `version` the catalog version that made it visible. A failure carries
 * the engine error kind the worker re-raises (`plan`, `exec`, `forbidden` for user mistakes, `internal` else).
 */
export type WriteReply =
  | { readonly ok: true; readonly version: number; readonly entry?: IcebergTableEntry; readonly existed?: boolean }
  | { readonly ok: false; readonly kind: EngineErrorKind; readonly message: string };

/** On the writes channel: worker → main `call`, main → workers `reply` (each worker keeps the ids it sent). */
export type WriteMessage =
  | { readonly type: 'call'; readonly id: string; readonly call: WriteCall }
  | { readonly type: 'reply'; readonly id: string; readonly reply: WriteReply };

/** The writes channel of a server: its catalog channel's name with this suffix (one per server in a process). */
export const writesChannelName = (catalogChannel: string): string => `${catalogChannel}-writes`;
