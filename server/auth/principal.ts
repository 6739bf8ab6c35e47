// `Principal`: who a request runs as, decided once per request by the authenticator and passed to the query service.

export interface Principal {
  /**
   * A stable name for rate limiting, metrics and logs, never the key itself: `key:<n>` for the n-th configured
   * API key, `addr:<client address>` when auth is off and a rate limit is on, `anonymous` with neither.
   */
  readonly id: string;
  /** May run writes (INSERT, refresh, PATCH): a `:rw` key, or any request when auth is off. */
  readonly canWrite: boolean;
}
