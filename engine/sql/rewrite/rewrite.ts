// `SqlRewrite`: one workaround for a node-sql-parser gap, as a text edit before parsing plus an AST fix after.
import type { Ast } from '../parse.js';
import type { SqlEdit } from './edit.js';
import type { Token } from './tokenize.js';

export interface SqlRewrite {
  /** Kebab-case, equal to the file stem. */
  readonly name: string;
  /**
   * Edits that make the text parseable, as offsets into `sql` (which `tokens` cover); they must not overlap.
   * Rewrites must only match significant tokens, so they never touch string literals, quoted names or comments.
   */
  edit(tokens: readonly Token[], sql: string): readonly SqlEdit[];
  /** Turns a marker the edit left into the AST the binder expects; called on every AST object, children first. */
  fixNode?(node: Ast): void;
}
