// `listLogicalOperand`: node-sql-parser reads `f(a, b AND c)` as `(a, b) AND c`; this puts the AND/OR back on the last item.
import type { Ast } from '../parse.js';
import type { SqlRewrite } from './rewrite.js';

/**
 * In an argument or row list whose last item holds AND/OR, the parser makes the whole list the leftmost operand:
 * `COALESCE('R', TRUE AND FALSE)` arrives as `{expr_list, value: AND([‘R’, TRUE], FALSE)}`. The AST is fixed by
 * walking down the `left` chain to that array and giving its last element back as the leftmost operand.
 */
export const listLogicalOperand: SqlRewrite = {
  name: 'list-logical-operand',
  edit: () => [],
  fixNode(node: Ast): void {
    if (node.type !== 'expr_list' || node.value === null || typeof node.value !== 'object') return;
    if (Array.isArray(node.value) || node.value.type !== 'binary_expr') return;
    let parent: Ast = node.value;
    while (parent.left?.type === 'binary_expr') parent = parent.left;
    const items = parent.left;
    if (!Array.isArray(items) || items.length === 0) return;
    parent.left = items[items.length - 1];
    node.value = [...items.slice(0, -1), node.value];
  },
};
