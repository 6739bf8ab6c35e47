// `RestAnswer` and `RestCatalogError`: what an Iceberg REST handler returns, and the spec's error envelope.

/** Every answer of the Iceberg routes is JSON, errors and empty answers included (iceberg-js parses by it). */
export const ICEBERG_CONTENT_TYPE = 'application/json';

/** One answer, independent of the HTTP server: status, extra headers, body ('' for 204, 304 and HEAD). */
export interface RestAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * An error a handler or a `RestCatalogSource` raises on purpose: answered as the spec's `IcebergErrorResponse`
 * `{"error": {"message", "type", "code"}}` (never a stack). `type` is one of the spec's exception names.
 */
export class RestCatalogError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const noSuchNamespace = (levels: readonly string[]) =>
  new RestCatalogError(404, 'NoSuchNamespaceException', `Namespace does not exist: ${levels.join('.')}`);

export const noSuchTable = (levels: readonly string[], table: string) =>
  new RestCatalogError(404, 'NoSuchTableException', `Table does not exist: ${[...levels, table].join('.')}`);

export const badRequest = (message: string) => new RestCatalogError(400, 'BadRequestException', message);

/** 500 with the contract's message shape (§7.3): `Internal Server Error: <reason code>`, nothing else. */
export const internalError = (code: string) =>
  new RestCatalogError(500, 'InternalServerError', `Internal Server Error: ${code}`);

/** `status` with `body` as JSON. */
export function jsonAnswer(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): RestAnswer {
  return { status, headers, body: JSON.stringify(body) };
}

/** The envelope of `error`; HEAD answers carry no body (the status says it all). */
export function errorAnswer(error: RestCatalogError, head = false): RestAnswer {
  const envelope = { error: { message: error.message, type: error.type, code: error.status } };
  return { status: error.status, headers: error.headers, body: head ? '' : JSON.stringify(envelope) };
}
