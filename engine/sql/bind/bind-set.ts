// `bindSet` / `bindShow`: the session settings clients send on connect, accepted when they ask for what floe does.
import { PlanError } from '../../errors.js';
import type { Values } from '../../plan/logical/index.js';
import { UTF8 } from '../../plan/types.js';
import type { Ast } from '../parse.js';

/**
 * A setting floe knows: `show` is its fixed value (SHOW's answer, under PostgreSQL's column name `column`), and
 * `accepts` says whether a SET value asks for that behaviour. floe has no sessions (HTTP is stateless), so a SET
 * changes nothing: it is accepted only when floe already behaves that way, and refused otherwise rather than ignored.
 */
interface Setting {
  readonly column: string;
  readonly show: string;
  readonly accepts: (value: string) => boolean;
  readonly expected: string;
}

const any = () => true;
const UTC_NAMES = new Set([
  'utc',
  'etc/utc',
  'gmt',
  'etc/gmt',
  'zulu',
  'universal',
  'etc/universal',
  '0',
  'default',
  'local',
]);
const ON = new Set(['on', 'true', '1', 'yes', 'default']);

const SETTINGS: ReadonlyMap<string, Setting> = new Map<string, Setting>([
  ['timezone', { column: 'TimeZone', show: 'UTC', accepts: (v) => UTC_NAMES.has(v), expected: "'UTC'" }],
  [
    'client_encoding',
    { column: 'client_encoding', show: 'UTF8', accepts: (v) => /^(utf-?8|unicode|default)$/.test(v), expected: 'UTF8' },
  ],
  [
    'datestyle',
    { column: 'DateStyle', show: 'ISO, MDY', accepts: (v) => /^(iso|default)\b/.test(v), expected: "'ISO'" },
  ],
  [
    'intervalstyle',
    {
      column: 'IntervalStyle',
      show: 'postgres',
      accepts: (v) => v === 'postgres' || v === 'default',
      expected: 'postgres',
    },
  ],
  [
    'standard_conforming_strings',
    { column: 'standard_conforming_strings', show: 'on', accepts: (v) => ON.has(v), expected: 'on' },
  ],
  ['search_path', { column: 'search_path', show: '"$user", public', accepts: any, expected: '' }],
  ['application_name', { column: 'application_name', show: '', accepts: any, expected: '' }],
  ['extra_float_digits', { column: 'extra_float_digits', show: '1', accepts: any, expected: '' }],
  ['statement_timeout', { column: 'statement_timeout', show: '0', accepts: any, expected: '' }],
  ['lock_timeout', { column: 'lock_timeout', show: '0', accepts: any, expected: '' }],
  [
    'idle_in_transaction_session_timeout',
    { column: 'idle_in_transaction_session_timeout', show: '0', accepts: any, expected: '' },
  ],
  ['client_min_messages', { column: 'client_min_messages', show: 'notice', accepts: any, expected: '' }],
]);

/** `SET [SESSION|LOCAL] name {TO|=} value` and `SET TIME ZONE value`: no rows, no columns, or a PlanError. */
export function bindSet(ast: Ast): Values {
  for (const item of (ast.expr ?? []) as Ast[]) {
    const name = settingName(item.left);
    const setting = lookup(name);
    const value = settingValue(item.right);
    // A value this check cannot read is refused unless the setting accepts anything.
    if (!setting.accepts(value?.toLowerCase() ?? '')) {
      throw new PlanError(
        `floe cannot set ${name} to ${value === null ? 'that value' : `'${value}'`}: it always runs with ${name} = ${setting.expected} (SET only accepts that value)`,
      );
    }
  }
  return { kind: 'values', rows: [], schema: { fields: [] } };
}

/** `SHOW name`: one row holding the setting's fixed value. */
export function bindShow(ast: Ast): Values {
  if (ast.keyword !== 'var') throw new PlanError(`SHOW ${String(ast.keyword).toUpperCase()} is not supported`);
  const setting = lookup(settingName(ast.var));
  return {
    kind: 'values',
    rows: [[{ kind: 'literal', value: setting.show, type: UTF8 }]],
    schema: { fields: [{ name: setting.column, qualifier: null, type: UTF8, nullable: false }] },
  };
}

function lookup(name: string): Setting {
  const setting = SETTINGS.get(name);
  if (!setting) throw new PlanError(`unrecognized configuration parameter "${name}"`);
  return setting;
}

/** `TIME ZONE` arrives as `{type: 'origin', value: 'time zone'}`, other names as a `var`. */
function settingName(left: Ast): string {
  const members = (left?.members ?? []) as string[];
  const raw = left?.type === 'origin' ? String(left.value) : [left?.name ?? '', ...members].join('.');
  return raw.toLowerCase().replace(/\s+/g, '');
}

/** The value as text (`'UTC'`, `ISO`, `0`, `on`); null for forms this check does not read (lists, expressions). */
function settingValue(right: Ast): string | null {
  if (right === null || right === undefined) return null;
  if (right.type === 'var') return String(right.name);
  if (right.type === 'number' || right.type === 'bool') return String(right.value);
  if (typeof right.value === 'string') return right.value;
  return null;
}
