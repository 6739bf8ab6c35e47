// The CSV and JSON readers' public surface (csv-parse's only home is csv-records.ts).
export { inferTextSchema } from './infer-text-schema.js';
export {
  DEFAULT_INFER_MAX_RECORDS,
  type DeclaredColumn,
  declaredType,
  type TextFormat,
  type TextReadOptions,
  textReadOptions,
} from './text-options.js';
export { createTextTable } from './text-table.js';
