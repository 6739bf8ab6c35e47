// Usage: node .ci/fill-lock.mjs after any npm install that changes package-lock.json.
// Adds lock entries for optional platform packages the registry here does not serve (other OS/CPU builds),
// so that `npm ci` accepts the lock; npm never installs them on this platform.
import { readFileSync, writeFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const pkgs = lock.packages;
let added = 0;
for (const meta of Object.values(pkgs)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (pkgs[key]) continue;
    const m = /-(android|darwin|linux|win32|freebsd)-(arm64|x64|ia32|arm)(-musl)?$/.exec(name);
    if (!m) {
      console.error('cannot infer platform of', name);
      continue;
    }
    pkgs[key] = {
      version,
      dev: meta.dev,
      optional: true,
      os: [m[1]],
      cpu: [m[2]],
      ...(m[3] ? { libc: ['musl'] } : {}),
    };
    if (!meta.dev) delete pkgs[key].dev;
    added++;
  }
}
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log('added', added);
