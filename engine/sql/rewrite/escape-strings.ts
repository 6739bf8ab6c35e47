// `E'a\tb'` -> `'a<tab>b'`: PostgreSQL's escape string constants, decoded into standard literals (the parser
// has no E'…' form).
import { NotSupportedError, ParseError } from '../../errors.js';
import type { SqlEdit } from './edit.js';
import type { SqlRewrite } from './rewrite.js';
import { significant } from './tokenize.js';

const SIMPLE: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const ESCAPE = /\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([\s\S]))|''/g;

/**
 * Escapes as PostgreSQL reads them: \b \f \n \r \t, octal \o \oo \ooo and hex \xh \xhh up to 0x7f, Unicode \uXXXX and
 * \UXXXXXXXX, any other character after a backslash as itself (\\ and \'); '' is a quote. The decoded value is
 * written back as a standard literal (quotes doubled; standard-strings.ts then keeps its backslashes).
 */
export const escapeStrings: SqlRewrite = {
  name: 'escape-strings',
  edit(all) {
    const edits: SqlEdit[] = [];
    for (const t of significant(all)) {
      if (t.kind !== 'string' || !/^[Ee]'/.test(t.text) || !t.text.endsWith("'") || t.text.length < 3) continue;
      const value = decode(t.text.slice(2, -1));
      edits.push({ start: t.start, end: t.end, text: `'${value.replaceAll("'", "''")}'` });
    }
    return edits;
  },
};

function decode(body: string): string {
  return body.replace(ESCAPE, (whole, octal, hex, u4, u8, other) => {
    if (whole === "''") return "'";
    const code = octal ? Number.parseInt(octal, 8) : hex ? Number.parseInt(hex, 16) : null;
    // A byte above 0x7f is part of a UTF-8 sequence in PostgreSQL; floe reads characters, not bytes.
    if (code !== null && code > 0x7f)
      throw new NotSupportedError('an octal or hex escape above \\x7f is not supported yet; use \\u');
    if (code !== null) return codePoint(code);
    if (u4 || u8) return codePoint(Number.parseInt(u4 ?? u8, 16));
    return SIMPLE[other] ?? other;
  });
}

function codePoint(code: number): string {
  if (code === 0) throw new ParseError('invalid byte sequence: an escape string cannot hold a zero byte');
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
    throw new ParseError(`invalid Unicode escape value: ${code.toString(16)}`);
  return String.fromCodePoint(code);
}
