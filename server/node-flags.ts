// `SERVER_NODE_FLAGS`: the V8 flags floe's server process runs with (package.json's start script, cli.ts's shebang,
// and the benchmarks that run floe the way the server does).

/**
 * `--single-threaded-gc`: V8 collects garbage on the thread that made it, without its helper threads. floe
 * already keeps every core busy with its own threads (a query worker per core, Parquet decode threads per core),
 * so the helpers only contended with them: TPC-H SF1 on Parquet files ran 10-25% faster per query without
 * them (queries in memory and HTTP serving unchanged). It must be given on the command line: V8 aborts when it
 * is set at run time.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--single-threaded-gc'];
