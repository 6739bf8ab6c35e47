// `JsonSplitter`: cuts JSON text, fed in pieces, into the texts of its top-level objects (or its array's objects).

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const NEWLINE = 0x0a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === NEWLINE || c === 0x0d || c === 0x09 || c === 0xfeff;
}

/**
 * Tracks only strings and nesting, not the grammar: each object's text goes to JSON.parse, which checks it. The
 * records are the objects at depth 0, or at depth 1 when the text starts with `[` (commas between them skipped).
 */
export class JsonSplitter {
  #pending = '';
  /** Where scanning resumes in `#pending`. */
  #at = 0;
  /** Start of the object being read in `#pending`, or -1 between objects. */
  #start = -1;
  #startLine = 0;
  #line = 1;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** null until the first character that is not white space decides. */
  #isArray: boolean | null = null;
  #arrayClosed = false;

  /** The objects that end in `text` (with what came before it). */
  feed(text: string): { text: string; line: number }[] {
    this.#pending += text;
    const out: { text: string; line: number }[] = [];
    const s = this.#pending;
    for (let i = this.#at; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === NEWLINE) this.#line++;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === BACKSLASH) this.#escaped = true;
        else if (c === QUOTE) this.#inString = false;
        continue;
      }
      if (this.#start >= 0) {
        if (c === QUOTE) i = this.#skipString(s, i);
        else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.#depth++;
        else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
          if (--this.#depth === 0) {
            out.push({ text: s.slice(this.#start, i + 1), line: this.#startLine });
            this.#start = -1;
          }
        }
        continue;
      }
      this.#between(c);
      if (c === OPEN_OBJECT) {
        this.#start = i;
        this.#startLine = this.#line;
        this.#depth = 1;
      }
    }
    this.#drop(s);
    return out;
  }

  /**
   * The position of the quote that closes the string opening at `open`, found with indexOf (most of a record's bytes
   * are inside strings); when the string goes on past `s`, the end of `s`, with the state left for the next piece.
   * A raw newline cannot be inside a JSON string, so none is counted here.
   */
  #skipString(s: string, open: number): number {
    for (let k = s.indexOf('"', open + 1); k >= 0; k = s.indexOf('"', k + 1)) {
      if (backslashesBefore(s, k, open) % 2 === 0) return k;
    }
    this.#inString = true;
    this.#escaped = backslashesBefore(s, s.length, open) % 2 === 1;
    return s.length - 1;
  }

  /** The text ended: an object or array left open is an error. */
  end(): void {
    if (this.#start >= 0) throw new JsonShapeError('unexpected end of file inside an object', this.#startLine);
    if (this.#isArray === true && !this.#arrayClosed)
      throw new JsonShapeError('unexpected end of file: the array is not closed', this.#line);
  }

  /** A character between records: white space, `[` first, commas and `]` in an array, or an object's `{`. */
  #between(c: number): void {
    if (isSpace(c)) return;
    if (this.#isArray === null) {
      this.#isArray = c === OPEN_ARRAY;
      if (this.#isArray) return;
    }
    if (this.#arrayClosed) throw new JsonShapeError('unexpected text after the top-level array', this.#line);
    if (this.#isArray && c === COMMA) return;
    if (this.#isArray && c === CLOSE_ARRAY) {
      this.#arrayClosed = true;
      return;
    }
    if (c !== OPEN_OBJECT) {
      const where = this.#isArray ? 'each element of the array' : 'each record';
      throw new JsonShapeError(`expected a JSON object for ${where}, found '${String.fromCharCode(c)}'`, this.#line);
    }
  }

  /** Keeps only the text of the object still open. */
  #drop(s: string): void {
    if (this.#start >= 0) {
      this.#pending = s.slice(this.#start);
      this.#at = s.length - this.#start;
      this.#start = 0;
    } else {
      this.#pending = '';
      this.#at = 0;
    }
  }
}

/** How many backslashes end `s` just before `at` (none before `floor`, the opening quote). */
function backslashesBefore(s: string, at: number, floor: number): number {
  let n = 0;
  while (at - n - 1 > floor && s.charCodeAt(at - n - 1) === BACKSLASH) n++;
  return n;
}

/** The file's top level is not what `readJsonRecords` reads; `line` is where. */
export class JsonShapeError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}
