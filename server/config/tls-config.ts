// `tlsSchema`: `runtime.tls` is refused when enabled: floe serves plain HTTP only, and must not pretend otherwise.
import { z } from 'zod';

/**
 * Spice's `runtime.tls {enabled, certificate | certificate_file, key | key_file}`. Accepted only as `enabled: false`
 * (or absent): an enabled TLS section stops the start, since floe would otherwise serve plain HTTP to clients that
 * were configured to expect TLS. Without certificate and key the message says so too. Terminate TLS in a proxy.
 */
export const tlsSchema = z
  .strictObject({
    /** On when the section is given, unless set to false (fail closed). */
    enabled: z.boolean().default(true),
    certificate: z.string().optional(),
    certificate_file: z.string().optional(),
    key: z.string().optional(),
    key_file: z.string().optional(),
  })
  .check((ctx) => {
    const tls = ctx.value;
    if (!tls.enabled) return;
    const hasCertificate = tls.certificate !== undefined || tls.certificate_file !== undefined;
    const hasKey = tls.key !== undefined || tls.key_file !== undefined;
    const missing = hasCertificate && hasKey ? '' : ' (and no certificate and key are given)';
    const message = `TLS is not supported yet${missing}; terminate TLS in a proxy, or set enabled: false`;
    ctx.issues.push({ code: 'custom', message, input: undefined, path: ['enabled'] });
  });
