// `listenUws`: the one place that touches uWebSockets.js: builds the app, listens, reports the port, closes.
import uWS from '@trufflesuite/uws-js-unofficial';

export type { HttpRequest, HttpResponse, TemplatedApp } from '@trufflesuite/uws-js-unofficial';

/** A listening uWS app. */
export interface UwsServer {
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** Stops accepting new connections; open connections and in-flight responses carry on. */
  stopListening(): void;
  /** Closes every socket at once, including keep-alive connections (in-flight responses are cut). */
  closeAll(): void;
}

/**
 * Creates an app, lets `register` attach the routes, and listens on host:port (port 0 = ephemeral).
 * Rejects when the address cannot be bound. Does not install signal handlers.
 */
export function listenUws(register: (app: uWS.TemplatedApp) => void, host: string, port: number): Promise<UwsServer> {
  const app = uWS.App();
  register(app);
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket) => {
      if (socket === false) {
        reject(new Error(`cannot listen on ${host}:${port}`));
        return;
      }
      let listening: uWS.us_listen_socket | null = socket;
      const stopListening = () => {
        if (listening !== null) uWS.us_listen_socket_close(listening);
        listening = null;
      };
      resolve({
        port: uWS.us_socket_local_port(socket as unknown as uWS.us_socket),
        stopListening,
        closeAll() {
          stopListening();
          // `close` exists on 20.x apps but is missing from the bundled typings.
          (app as unknown as { close(): void }).close();
        },
      });
    });
  });
}
