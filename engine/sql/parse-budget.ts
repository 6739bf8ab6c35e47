// `BudgetedText`: SQL text that stops node-sql-parser once it has read more than a budget of characters.

/**
 * node-sql-parser is a PEG parser without memoisation: a syntax error inside nested parentheses makes every
 * enclosing level retry each of its alternatives, so the time doubles or worse per level (`SELECT ((((=))))` at 18
 * levels took 25 s; `(SELECT (SELECT …=` at 8 levels ran out of memory). A parse that succeeds reads each
 * character 40–130 times (measured over test/slt), so the parser reads the text through this wrapper, which counts
 * reads and throws `ParseBudgetExceeded` past `STEPS_PER_CHAR` per character: any input parses or fails in time
 * linear in its length. The parser reads its input only through `charAt`, `charCodeAt` and `substr`.
 */
export const STEPS_PER_CHAR = 400;
const BASE_STEPS = 50_000;

/**
 * Shaped like node-sql-parser's syntax error, at the furthest offset the parser read: a PEG parser fails at its
 * furthest point, so parse.ts reports it with line, column and caret like any other syntax error.
 */
export class ParseBudgetExceeded extends Error {
  readonly location: { start: { offset: number; line: number; column: number } };
  readonly found: string | null;
  readonly hint: string;

  constructor(text: string, furthest: number, steps: number) {
    super(`the parser gave up after ${steps} steps`);
    this.location = { start: { offset: furthest, line: 0, column: 0 } };
    this.found = furthest < text.length ? text.charAt(furthest) : null;
    this.hint = `the parser gave up after ${steps} steps: a syntax error inside nested parentheses costs it time exponential in their depth`;
  }
}

export class BudgetedText extends String {
  #left: number;
  #furthest = 0;
  readonly #budget: number;

  constructor(text: string) {
    super(text);
    this.#budget = BASE_STEPS + STEPS_PER_CHAR * text.length;
    this.#left = this.#budget;
  }

  #step(pos: number): void {
    if (pos > this.#furthest) this.#furthest = pos;
    if (--this.#left < 0) throw new ParseBudgetExceeded(String(this), this.#furthest, this.#budget);
  }

  override charAt(pos: number): string {
    this.#step(pos);
    return super.charAt(pos);
  }

  override charCodeAt(index: number): number {
    this.#step(index);
    return super.charCodeAt(index);
  }

  override substr(from: number, length?: number): string {
    this.#step(from);
    return super.substr(from, length);
  }
}
