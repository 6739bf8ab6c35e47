// Reference server, the ceiling: uWebSockets.js answering every request with a fixed body, no query at all.
// Prints `listening <port>` on stdout; stops on SIGTERM.
import { listenUws } from '../../server/http/uws-app.js';

const server = await listenUws(
  (app) => {
    app.any('/*', (res) => {
      res.end('Hello World!');
    });
  },
  '127.0.0.1',
  Number(process.argv[2] ?? 0),
);
process.stdout.write(`listening ${server.port}\n`);
process.on('SIGTERM', () => {
  server.closeAll();
  process.exit(0);
});
