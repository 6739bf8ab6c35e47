// Readers of a tools/call's `arguments`: each wrong argument is a -32602 naming the argument and what it expects.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export type ToolArgs = Readonly<Record<string, unknown>>;

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

/** A required non-empty string. */
export function requiredString(args: ToolArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`'${name}' must be a non-empty string`);
  return value;
}

/** An optional string (absent or null: undefined). */
export function optionalString(args: ToolArgs, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw invalid(`'${name}' must be a non-empty string`);
  return value;
}

/** An optional integer in [min, max]; `fallback` when absent. */
export function integerIn(args: ToolArgs, name: string, min: number, max: number, fallback: number): number {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`'${name}' must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** An optional string among `allowed`; `fallback` when absent. */
export function oneOf<T extends string>(args: ToolArgs, name: string, allowed: readonly T[], fallback: T): T {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalid(`'${name}' must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** An optional array of non-empty strings. */
export function optionalStrings(args: ToolArgs, name: string): string[] | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v === '')) {
    throw invalid(`'${name}' must be an array of non-empty strings`);
  }
  return value as string[];
}
