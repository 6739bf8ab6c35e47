// `SERVER_NODE_FLAGS`: the V8 flags floe's server process runs with (package.json's start script, cli.ts's shebang,
// and the benchmarks that run floe the way the server does).

/**
 * `--no-concurrent-marking`: V8 marks the old generation in steps on the thread that owns the heap instead of in
 * helper threads. floe already keeps every core busy with its own threads (a query worker per core, Parquet decode
 * threads per core), and in files mode the decoded batches a query thread receives start a major collection every
 * ~64 MiB (external memory pressure): the marking helpers then competed with the decode threads. TPC-H SF1 on
 * Parquet files ran 5-25% faster per query without them; HTTP serving was unchanged. (`--single-threaded-gc`, all
 * helpers off, gained about as much on files but cost point lookups up to 12% in one of two HTTP rounds.) It must
 * be given on the command line, like any V8 flag that shapes the heap.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-concurrent-marking'];
