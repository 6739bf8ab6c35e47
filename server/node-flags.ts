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
 *
 * `--max-semi-space-size=4` (MiB; V8's default here is 16): a young generation of 8 MiB instead of 32 on every
 * thread. Under 64 connections the main thread's scavenges paused the HTTP loop long enough to set the p99: point
 * lookup p99 10.8-11.7 → 7.5-8.9 ms, same requests/s (three alternated rounds). Most of what those scavenges
 * copied was request state kept alive by per-request Map/Set churn (removed in ac6dba3, see pool/id-slots.ts);
 * after that, 16 MiB still measured worse for this thread (~0.45 MiB survivors, 2.6-3.6 ms pauses against
 * ~0.11 MiB and 1.2-1.3 ms). Only the main thread's size mattered (a small young generation for the
 * workers alone, through Piscina's resourceLimits, gained nothing), but a flag sets every isolate and
 * resourceLimits cannot raise a worker above it; TPC-H on Parquet files, four alternated rounds of q1/q3/q12/q19,
 * was no slower (q12 736 → 648 ms, the others within ±5%), in memory within the run-to-run spread.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-concurrent-marking', '--max-semi-space-size=4'];
