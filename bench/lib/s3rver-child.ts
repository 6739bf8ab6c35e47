// Child process of the S3 bench: s3rver on a loopback port, in a process of its own so that the queries the parent
// runs never hold up its answers. Says `{endpoint}` once up; answers `stats` with the GETs and bytes served.
import { startS3Server } from '../../test/helpers/s3-server.js';

const s3 = await startS3Server(['tpch']);
process.send?.({ endpoint: s3.endpoint });
process.on('message', (m: string) => {
  if (m === 'stop') {
    void s3.dispose().then(() => process.exit(0));
    return;
  }
  const gets = s3.requests.filter((r) => r.method === 'GET');
  const bytes = gets.reduce((n, r) => n + rangeLength(r.headers.range), 0);
  s3.requests.length = 0;
  process.send?.({ gets: gets.length, bytes });
});

/** `bytes=a-b` -> b - a + 1 (floe's S3 reads are all ranged). */
function rangeLength(range: string | undefined): number {
  const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
  return m === null ? 0 : Number(m[2]) - Number(m[1]) + 1;
}
