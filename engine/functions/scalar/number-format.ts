// `parseNumberFormat`: a to_char number template (9 0 . , D G S MI PL SG PR FM L V TH EEEE) as PostgreSQL reads it.
import { ExecError, NotSupportedError } from '../../errors.js';

export type NumberKey =
  | ','
  | '.'
  | '0'
  | '9'
  | 'D'
  | 'G'
  | 'L'
  | 'MI'
  | 'PL'
  | 'SG'
  | 'PR'
  | 'S'
  | 'FM'
  | 'EEEE'
  | 'V'
  | 'TH'
  | 'th';
export type NumberNode = { readonly key: NumberKey } | { readonly text: string };

/** The parsed template: its nodes and PostgreSQL's NUMDesc counts and flags. */
export interface NumberFormat {
  readonly nodes: readonly NumberNode[];
  /** Digit positions before and after the decimal point. */
  pre: number;
  post: number;
  decimal: boolean;
  /** `0` before the decimal point: zeroStart is the 1-based position of the first one; zeroEnd the last `0`. */
  zero: boolean;
  zeroStart: number;
  zeroEnd: number;
  /** S: anchored before (`pre`) or after (`post`) the digits; preLsignNum = digits before the S. */
  lsign: 'pre' | 'post' | null;
  preLsignNum: number;
  fillMode: boolean;
  bracket: boolean;
  minus: boolean;
  plus: boolean;
  eeee: boolean;
  /** V: the value is multiplied by 10^multi (the `9`s after the V). */
  multi: number;
}

/** PostgreSQL's keyword list, both cases, longest first where one is a prefix of another. */
const KEYS: readonly [string, NumberKey | null][] = [
  [',', ','],
  ['.', '.'],
  ['0', '0'],
  ['9', '9'],
  ['EEEE', 'EEEE'],
  ['FM', 'FM'],
  ['MI', 'MI'],
  ['PL', 'PL'],
  ['PR', 'PR'],
  ['SG', 'SG'],
  ['SP', null],
  ['S', 'S'],
  ['D', 'D'],
  ['G', 'G'],
  ['L', 'L'],
  ['B', null],
  ['C', null],
  ['RN', null],
  ['TH', 'TH'],
  ['V', 'V'],
];
const KEYWORDS = KEYS.flatMap(([text, key]) =>
  text === text.toLowerCase()
    ? [{ text, key }]
    : [
        { text, key },
        { text: text.toLowerCase(), key: key === 'TH' ? ('th' as const) : key },
      ],
);

const cache = new Map<string, NumberFormat>();

/** Parses `format` (cached); throws PostgreSQL's errors for templates it rejects. */
export function parseNumberFormat(format: string): NumberFormat {
  let f = cache.get(format);
  if (f === undefined) {
    f = describe(tokenize(format));
    if (cache.size > 256) cache.clear();
    cache.set(format, f);
  }
  // The processor edits the counts (FM drops a bracket, S moves): hand out a copy.
  return { ...f };
}

function tokenize(format: string): NumberNode[] {
  const nodes: NumberNode[] = [];
  for (let i = 0; i < format.length; ) {
    const c = format[i]!;
    if (c === '"') {
      const close = format.indexOf('"', i + 1);
      const end = close < 0 ? format.length : close;
      for (const ch of format.slice(i + 1, end)) nodes.push({ text: ch });
      i = end + 1;
      continue;
    }
    if (c === '\\' && format[i + 1] === '"') {
      nodes.push({ text: '"' });
      i += 2;
      continue;
    }
    const hit = KEYWORDS.find((k) => format.startsWith(k.text, i));
    if (hit && hit.key === null)
      throw new NotSupportedError(`to_char number pattern "${hit.text.toUpperCase()}" is not supported yet`);
    if (hit) {
      nodes.push({ key: hit.key! });
      i += hit.text.length;
      continue;
    }
    const ch = String.fromCodePoint(format.codePointAt(i)!);
    nodes.push({ text: ch });
    i += ch.length;
  }
  return nodes;
}

const bad = (message: string) => new ExecError(message);

/** NUMDesc_prepare: counts digit positions and checks the pattern combinations PostgreSQL refuses. */
function describe(nodes: NumberNode[]): NumberFormat {
  const f: NumberFormat = {
    nodes,
    pre: 0,
    post: 0,
    decimal: false,
    zero: false,
    zeroStart: 0,
    zeroEnd: 0,
    lsign: null,
    preLsignNum: 0,
    fillMode: false,
    bracket: false,
    minus: false,
    plus: false,
    eeee: false,
    multi: 0,
  };
  let v = false;
  for (const n of nodes) {
    if (!('key' in n)) continue;
    if (f.eeee && n.key !== 'EEEE') throw bad('"EEEE" must be the last pattern used');
    switch (n.key) {
      case '9':
      case '0':
        if (f.bracket) throw bad(`"${n.key}" must be ahead of "PR"`);
        if (n.key === '9' && v) {
          f.multi++;
          break;
        }
        if (n.key === '0' && !f.zero && !f.decimal) [f.zero, f.zeroStart] = [true, f.pre + 1];
        if (f.decimal) f.post++;
        else f.pre++;
        if (n.key === '0') f.zeroEnd = f.pre + f.post;
        break;
      case 'D':
      case '.':
        if (f.decimal) throw bad('multiple decimal points');
        if (v) throw bad('cannot use "V" and decimal point together');
        f.decimal = true;
        break;
      case 'FM':
        f.fillMode = true;
        break;
      case 'S':
        if (f.lsign !== null) throw bad('cannot use "S" twice');
        if (f.plus || f.minus || f.bracket) throw bad('cannot use "S" and "PL"/"MI"/"SG"/"PR" together');
        if (!f.decimal) [f.lsign, f.preLsignNum] = ['pre', f.pre];
        else f.lsign = 'post';
        break;
      case 'MI':
      case 'PL':
      case 'SG':
        if (f.lsign !== null) throw bad(`cannot use "S" and "${n.key}" together`);
        if (n.key !== 'PL') f.minus = true;
        if (n.key !== 'MI') f.plus = true;
        break;
      case 'PR':
        if (f.lsign !== null || f.plus || f.minus) throw bad('cannot use "PR" and "S"/"PL"/"MI"/"SG" together');
        f.bracket = true;
        break;
      case 'V':
        if (f.decimal) throw bad('cannot use "V" and decimal point together');
        v = true;
        break;
      case 'EEEE':
        if (f.eeee) throw bad('cannot use "EEEE" twice');
        if (f.fillMode || f.lsign !== null || f.bracket || f.minus || f.plus || v)
          throw bad('"EEEE" is incompatible with other formats');
        f.eeee = true;
        break;
    }
  }
  return f;
}
