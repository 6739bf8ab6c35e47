// `runtime.flight` (the Arrow Flight / Flight SQL listener) as a zod schema, and how it combines with --flight.
import { z } from 'zod';
import { hostPort, hostPortSchema } from './host-port-config.js';

/** Where the Flight listener binds, or 'off'. */
export type FlightListen = { readonly host: string; readonly port: number } | 'off';

/** The `floe` CLI's listener when neither --flight nor `runtime.flight` says otherwise (the contract's 50051). */
export const DEFAULT_FLIGHT_ENDPOINT = { host: '127.0.0.1', port: 50051 } as const;

/** `runtime.flight: {enabled, address}` (Spice takes the address on its command line; `address` is floe's). */
export const flightSchema = z.strictObject({
  enabled: z.boolean().default(true),
  address: hostPortSchema.optional(),
  /** Spice's cap on a gRPC message; floe caps record batches at 2 MiB instead (warned about, ignored). */
  max_message_size: z.unknown().optional(),
});

/** The manifest's setting, or undefined when `runtime.flight` is absent. */
export function flightConfig(raw: z.infer<typeof flightSchema> | undefined): FlightListen | undefined {
  if (raw === undefined) return undefined;
  if (!raw.enabled) return 'off';
  return raw.address === undefined ? DEFAULT_FLIGHT_ENDPOINT : (hostPort(raw.address) as FlightListen);
}
