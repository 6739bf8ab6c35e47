// to_char(number, format): PostgreSQL's NUM_processor over the digits of an integer, numeric or double.
import { ExecError } from '../../errors.js';
import { type NumberFormat, parseNumberFormat } from './number-format.js';

/** An exact value as decimal text (`-12.50`; integers and numerics), or a double. */
export type NumberInput = { readonly exact: string } | { readonly float: number };

// Locale C, as PostgreSQL answers with lc_numeric = C: no thousands separator or currency symbol there, so
// PostgreSQL's fallbacks apply (',' and ' ').
const DECIMAL_POINT = '.';
const THOUSANDS = ',';
const CURRENCY = ' ';
/** DBL_DIG: the significant digits a double's to_char shows at most. */
const DOUBLE_DIGITS = 15;

/** The SQL type of the value: it decides EEEE's arithmetic (int4 goes through a double) and V's overflow. */
export type NumberKind = 'int4' | 'int8' | 'numeric' | 'float8';

/** Formats one value the way PostgreSQL 15's to_char does for its type. */
export function formatNumber(input: NumberInput, format: string, kind: NumberKind): string {
  const f = parseNumberFormat(format);
  if (f.eeee) return scientific(input, f, kind === 'int4');
  const value = f.multi > 0 ? multiplied(input, f.multi, kind) : input;
  f.pre += f.multi;
  const text = 'exact' in value ? roundExact(value.exact, f.post) : fixedDouble(value.float, f);
  const negative = text.startsWith('-');
  let digits = negative ? text.slice(1) : text;
  const dot = digits.indexOf('.');
  const preLen = dot < 0 ? digits.length : dot;
  let outPreSpaces = 0;
  if (preLen < f.pre) outPreSpaces = f.pre - preLen;
  else if (preLen > f.pre) digits = overflow(f.pre, f.post);
  return processNumber(f, digits, outPreSpaces, negative ? '-' : '+');
}

/** V: the value times 10^multi; int4 wraps around as PostgreSQL's unchecked C multiply does, int8 raises. */
function multiplied(input: NumberInput, multi: number, kind: NumberKind): NumberInput {
  if ('float' in input) return { float: input.float * 10 ** multi };
  const [int, frac = ''] = input.exact.split('.');
  const shifted = `${int}${frac.padEnd(multi, '0').slice(0, multi)}${frac.length > multi ? `.${frac.slice(multi)}` : ''}`;
  if (kind === 'numeric') return { exact: shifted };
  const product = BigInt(shifted);
  if (kind === 'int4') return { exact: String(BigInt.asIntN(32, product)) };
  if (product !== BigInt.asIntN(64, product)) throw new ExecError('bigint out of range');
  return { exact: String(product) };
}

/** `#` for every digit position, with the decimal point in place. */
function overflow(pre: number, post: number): string {
  return `${'#'.repeat(pre)}.${'#'.repeat(post)}`;
}

/** numeric_round(x, post) then numeric_out: half away from zero, exactly `post` decimals. */
function roundExact(text: string, post: number): string {
  const negative = text.startsWith('-');
  const [int, frac = ''] = (negative ? text.slice(1) : text).split('.');
  let scaled = BigInt(int! + frac.padEnd(post, '0').slice(0, post));
  if (frac.length > post && frac[post]! >= '5') scaled += 1n;
  const s = scaled.toString().padStart(post + 1, '0');
  const body = post > 0 ? `${s.slice(0, -post)}.${s.slice(-post)}` : s;
  return negative && /[1-9]/.test(body) ? `-${body}` : body;
}

/** C's `%.*f` of a double (exact binary value, ties to even); NaN and ±Infinity as PostgreSQL's snprintf writes them. */
function fixedDouble(v: number, f: NumberFormat): string {
  const special = Number.isNaN(v) ? 'NaN' : Number.isFinite(v) ? null : 'Infinity';
  const preLen = special?.length ?? exactFixed(Math.abs(v), 0).length;
  // float8_to_char keeps at most DBL_DIG digits in all.
  f.post = preLen >= DOUBLE_DIGITS ? 0 : Math.min(f.post, DOUBLE_DIGITS - preLen);
  const s = special ?? exactFixed(Math.abs(v), f.post);
  return v < 0 || Object.is(v, -0) ? `-${s}` : s;
}

/** The exact decimal expansion of a finite double >= 0 as [digits, scale]: v = digits / 10^scale. */
function exactDecimal(v: number): [bigint, number] {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, v);
  const bits = buf.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (exp !== 0) mant |= 1n << 52n;
  const e = (exp === 0 ? 1 : exp) - 1075;
  if (e >= 0) return [mant << BigInt(e), 0];
  return [mant * 5n ** BigInt(-e), -e];
}

/** Rounds digits/10^scale to `keep` decimals, ties to even (glibc printf). */
function roundHalfEven(digits: bigint, scale: number, keep: number): bigint {
  if (scale <= keep) return digits * 10n ** BigInt(keep - scale);
  const div = 10n ** BigInt(scale - keep);
  const q = digits / div;
  const r = digits % div;
  const twice = 2n * r;
  return twice > div || (twice === div && q % 2n === 1n) ? q + 1n : q;
}

function exactFixed(v: number, decimals: number): string {
  const [digits, scale] = exactDecimal(v);
  const s = roundHalfEven(digits, scale, decimals)
    .toString()
    .padStart(decimals + 1, '0');
  return decimals > 0 ? `${s.slice(0, -decimals)}.${s.slice(-decimals)}` : s;
}

/** EEEE: the value as `d.ddde+XX` (a space where a positive sign would go); other patterns are ignored. */
function scientific(value: NumberInput, f: NumberFormat, asFloat: boolean): string {
  const v = 'exact' in value ? Number(value.exact) : value.float;
  if (!Number.isFinite(v)) return ` ${'#'.repeat(f.pre)}.${'#'.repeat(f.post + 4)}`;
  const text = 'exact' in value && !asFloat ? exactScientific(value.exact, f.post) : floatScientific(v, f.post);
  return text.startsWith('-') ? text : ` ${text}`;
}

/** numeric_out_sci: `post` decimals of the mantissa, rounded half away from zero. */
function exactScientific(text: string, post: number): string {
  const negative = text.startsWith('-');
  const [int, frac = ''] = (negative ? text.slice(1) : text).split('.');
  const all = (int! + frac).replace(/^0+/, '');
  if (all === '') return `${negative ? '-' : ''}${post > 0 ? `0.${'0'.repeat(post)}` : '0'}e+00`;
  let exp = int!.replace(/^0+/, '').length - 1;
  if (exp < 0) exp = -(frac.length - frac.replace(/^0+/, '').length) - 1;
  let mant = BigInt(all.padEnd(post + 1, '0').slice(0, post + 1));
  if (all.length > post + 1 && all[post + 1]! >= '5') mant += 1n;
  // The exponent is taken before rounding: 9.5 with no decimals is `10e+00`, as PostgreSQL prints it.
  return `${negative ? '-' : ''}${withPoint(mant.toString(), post)}e${exponent(exp)}`;
}

/** C's `%.*e` of a double: exact binary value, ties to even. */
function floatScientific(v: number, post: number): string {
  const [digits, scale] = exactDecimal(Math.abs(v));
  if (digits === 0n) return `${v < 0 || Object.is(v, -0) ? '-' : ''}${withPoint('0'.repeat(post + 1), post)}e+00`;
  let exp = digits.toString().length - 1 - scale;
  let mant = roundHalfEven(digits, scale, post - exp);
  if (mant.toString().length > post + 1) [mant, exp] = [mant / 10n, exp + 1];
  return `${v < 0 ? '-' : ''}${withPoint(mant.toString(), post)}e${exponent(exp)}`;
}

const withPoint = (d: string, post: number) => (post > 0 ? `${d.slice(0, -post)}.${d.slice(-post)}` : d);
const exponent = (e: number) => `${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;

/** NUM_processor (to_char direction) over `number` (digits and '.', no sign), writing into a C-like buffer. */
function processNumber(f: NumberFormat, number: string, outPreSpaces: number, sign: '+' | '-'): string {
  const p = new NumberWriter(f, number, outPreSpaces, sign);
  for (const n of f.nodes) {
    if ('text' in n) p.out += n.text;
    else p.node(n.key);
  }
  // A digit written past the end of the number string is C's NUL: the output ends there.
  const nul = p.out.indexOf('\0');
  return nul < 0 ? p.out : p.out.slice(0, nul);
}

class NumberWriter {
  out = '';
  #signWrote: boolean;
  #numIn = false;
  #numCurr = 0;
  #at = 0;
  readonly #numCount: number;
  readonly #lastRelevant: number | null;

  constructor(
    readonly f: NumberFormat,
    readonly number: string,
    readonly outPreSpaces: number,
    readonly sign: '+' | '-',
  ) {
    if (f.zeroStart) f.zeroStart--;
    if (f.plus || f.minus) this.#signWrote = !(f.plus && !f.minus);
    else {
      if (sign !== '-' && f.fillMode) f.bracket = false;
      this.#signWrote = sign === '+' && f.fillMode && f.lsign === null;
      if (f.lsign === 'pre' && f.pre === f.preLsignNum) f.lsign = 'post';
    }
    let count = f.post + f.pre - 1;
    this.#lastRelevant = f.fillMode && f.decimal ? this.#relevant() : null;
    if (!this.#signWrote && outPreSpaces === 0) count++;
    this.#numCount = count;
  }

  /** get_last_relevant_decnum, kept from stripping the digits a `0` asks for. */
  #relevant(): number | null {
    const dot = this.number.indexOf('.');
    if (dot < 0) return null;
    let last = dot;
    for (let i = dot + 1; i < this.number.length; i++) if (this.number[i] !== '0') last = i;
    if (this.f.zeroEnd > this.outPreSpaces) {
      const zero = Math.min(this.number.length - 1, this.f.zeroEnd - this.outPreSpaces);
      if (last < zero) last = zero;
    }
    return last;
  }

  node(key: string): void {
    const f = this.f;
    switch (key) {
      case '9':
      case '0':
      case '.':
      case 'D':
        this.#numpart(key);
        return;
      case ',':
      case 'G':
        if (this.#numIn) this.out += THOUSANDS;
        else if (!f.fillMode) this.out += ' ';
        return;
      case 'L':
        this.out += CURRENCY;
        return;
      case 'MI':
        if (this.sign === '-') this.out += '-';
        else if (!f.fillMode) this.out += ' ';
        return;
      case 'PL':
        if (this.sign === '+') this.out += '+';
        else if (!f.fillMode) this.out += ' ';
        return;
      case 'SG':
        this.out += this.sign;
        return;
      case 'TH':
      case 'th':
        // No ordinal for overflow, negative or fractional templates.
        if (this.number[0] !== '#' && this.sign !== '-' && !f.decimal) this.out += ordinal(this.number, key === 'TH');
        return;
    }
  }

  get #predecSpace(): boolean {
    return !this.f.zero && this.#at === 0 && this.number[0] === '0' && this.f.post !== 0;
  }

  #writeSign(): void {
    const f = this.f;
    if (f.lsign !== null) {
      if (f.lsign === 'pre') [this.out, this.#signWrote] = [this.out + this.sign, true];
    } else if (f.bracket) [this.out, this.#signWrote] = [this.out + (this.sign === '+' ? ' ' : '<'), true];
    else if (this.sign === '+') [this.out, this.#signWrote] = [this.out + (f.fillMode ? '' : ' '), true];
    else [this.out, this.#signWrote] = [`${this.out}-`, true];
  }

  /** NUM_numpart_to_char: a digit position or the decimal point. */
  #numpart(id: string): void {
    const f = this.f;
    const relevantDot = this.#lastRelevant !== null && this.number[this.#lastRelevant] === '.';
    this.#numIn = false;
    if (
      !this.#signWrote &&
      (this.#numCurr >= this.outPreSpaces || (f.zero && f.zeroStart === this.#numCurr)) &&
      (!this.#predecSpace || relevantDot)
    )
      this.#writeSign();
    if (this.#numCurr < this.outPreSpaces && (f.zeroStart > this.#numCurr || !f.zero)) {
      if (!f.fillMode) this.out += ' ';
    } else if (f.zero && this.#numCurr < this.outPreSpaces && f.zeroStart <= this.#numCurr) {
      this.out += '0';
      this.#numIn = true;
    } else {
      const c = this.number[this.#at] ?? '\0';
      if (c === '.') {
        if (!relevantDot || f.fillMode) this.out += DECIMAL_POINT;
      } else if (this.#lastRelevant !== null && this.#at > this.#lastRelevant && id !== '0') {
        // FM drops trailing zeros.
      } else if (this.#predecSpace) {
        if (!f.fillMode) this.out += ' ';
        else if (relevantDot) this.out += '0';
      } else {
        this.out += c;
        this.#numIn = true;
      }
      if (this.#at < this.number.length) this.#at++;
    }
    let end = this.#numCount + (this.outPreSpaces ? 1 : 0) + (f.decimal ? 1 : 0);
    if (this.#lastRelevant !== null && this.#lastRelevant === this.#at) end = this.#numCurr;
    if (this.#numCurr + 1 === end) {
      if (this.#signWrote && f.bracket) this.out += this.sign === '+' ? ' ' : '>';
      else if (f.lsign === 'post') this.out += this.sign;
    }
    this.#numCurr++;
  }
}

/** get_th: `st`, `nd`, `rd` by the last digit, `th` for the teens and the rest. */
function ordinal(number: string, upper: boolean): string {
  const last = number[number.length - 1]!;
  const teen = number.length > 1 && number[number.length - 2] === '1';
  const suffix = teen ? 'th' : last === '1' ? 'st' : last === '2' ? 'nd' : last === '3' ? 'rd' : 'th';
  return upper ? suffix.toUpperCase() : suffix;
}
