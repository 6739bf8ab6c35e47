// The errors of Iceberg tables and commits, as engine errors (their kind says how the server reports them).
import { ExecError, PlanError } from '../../engine/index.js';

/** CREATE TABLE of a table whose `v1.metadata.json` exists already (PostgreSQL: relation already exists). */
export class TableExistsError extends PlanError {
  constructor(readonly location: string) {
    super(`Iceberg table ${location} already exists`);
    this.name = 'TableExistsError';
  }
}

/** No table at the location (no `vN.metadata.json`). */
export class NoSuchTableError extends PlanError {
  constructor(readonly location: string) {
    super(`no Iceberg table at ${location}`);
    this.name = 'NoSuchTableError';
  }
}

/** An `error_if_not_empty` write found rows in the table's current snapshot. */
export class TableNotEmptyError extends ExecError {
  constructor(readonly location: string) {
    super(`Iceberg table ${location} is not empty`);
    this.name = 'TableNotEmptyError';
  }
}

/** Other writers kept winning: the commit gave up after its retries (nothing of it was published). */
export class CommitConflictError extends ExecError {
  constructor(
    readonly location: string,
    attempts: number,
  ) {
    super(`Iceberg commit to ${location} failed: ${attempts} concurrent commits won first; try again`);
    this.name = 'CommitConflictError';
  }
}

/** A metadata file floe cannot use: not JSON, or a field it relies on missing or wrong. */
export class InvalidMetadataError extends ExecError {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file} is not valid Iceberg table metadata: ${reason}`);
    this.name = 'InvalidMetadataError';
  }
}
