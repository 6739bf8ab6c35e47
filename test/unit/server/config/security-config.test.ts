// runtime.auth, runtime.tls, runtime.cors and runtime.http.rate_limit: accepted values, and every refusal names its key path.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntime, runtimeProblem } from '../../../helpers/manifest-runtime.js';

const _base = { version: 'v1', kind: 'Spicepod', name: 'm' };
const SECRET = 'sk-very-secret-0123';

const parse = loadRuntime;

describe('runtime.auth', () => {
  it('reads api-key and api_key keys with :ro (default) and :rw, from ${env:} and ${secrets:}', () => {
    const env = { FLOE_KEY: `${SECRET}:rw`, OTHER_KEY: 'b2' };
    const m = parse(
      { auth: { 'api-key': { enabled: true, keys: ['a1', 'a3:ro', '${env:FLOE_KEY}', { key: 'x:y' }] } } },
      env,
    );
    assert.deepEqual(m.auth?.keys, [
      { secret: 'a1', canWrite: false },
      { secret: 'a3', canWrite: false },
      { secret: SECRET, canWrite: true },
      { secret: 'x:y', canWrite: false },
    ]);
    assert.deepEqual(parse({ auth: { api_key: { keys: ['${secrets:other_key}'] } } }, env).auth?.keys, [
      { secret: 'b2', canWrite: false },
    ]);
    assert.deepEqual(m.warnings, []);
  });

  it("reads the contract's form: enabled and keys (with a key field) right under runtime.auth", () => {
    const m = parse({ auth: { enabled: true, keys: [{ key: `${SECRET}:rw` }, 'k2'] } });
    assert.deepEqual(m.auth?.keys, [
      { secret: SECRET, canWrite: true },
      { secret: 'k2', canWrite: false },
    ]);
    assert.equal(parse({ auth: { enabled: false } }).auth, null);
  });

  it('is off without the section or with enabled: false', () => {
    assert.equal(parse({}).auth, null);
    assert.equal(parse({ auth: { 'api-key': { enabled: false } } }).auth, null);
  });

  const refusals: [string, object, RegExp][] = [
    [
      'no keys',
      { 'api-key': { enabled: true } },
      /^runtime\.auth\.api-key\.keys: API key auth is enabled but lists no keys$/,
    ],
    [
      'an empty list',
      { api_key: { keys: [] } },
      /^runtime\.auth\.api_key\.keys: API key auth is enabled but lists no keys$/,
    ],
    ['an empty key', { 'api-key': { keys: ['ok', ':rw'] } }, /^runtime\.auth\.api-key\.keys\[1\]: empty API key$/],
    [
      'a key with a space',
      { 'api-key': { keys: [`${SECRET} x`] } },
      /^runtime\.auth\.api-key\.keys\[0\]: .*visible ASCII/,
    ],
    [
      'a repeated key',
      { 'api-key': { keys: [SECRET, `${SECRET}:rw`] } },
      /^runtime\.auth\.api-key\.keys\[1\]: the same API key as keys\[0\]$/,
    ],
    [
      'an unknown provider',
      { oidc: { issuer: 'x' } },
      /^runtime\.auth\.oidc: auth provider 'oidc' is not supported; floe supports api-key$/,
    ],
    ['both spellings', { 'api-key': { keys: ['a'] }, api_key: { keys: ['b'] } }, /^runtime\.auth\.api_key: /],
    ['no provider', {}, /^runtime\.auth: no auth provider given; expected api-key$/],
    ['enabled without keys', { enabled: true }, /^runtime\.auth\.keys: API key auth is enabled but lists no keys$/],
    [
      'keys here and under api-key',
      { keys: ['a'], 'api-key': { keys: ['b'] } },
      /^runtime\.auth\.keys: api-key and keys /,
    ],
    ['a bad type', { 'api-key': { enabled: 'yes', keys: ['a'] } }, /^runtime\.auth\.api-key\.enabled: /],
    ['an unknown key', { 'api-key': { keys: ['a'], roles: [] } }, /^runtime\.auth\.api-key\.roles: unknown key$/],
  ];
  for (const [what, auth, expected] of refusals) {
    it(`refuses ${what} (never quoting a key)`, () => {
      const message = runtimeProblem({ auth });
      assert.match(message, expected);
      assert.ok(!message.includes(SECRET), message);
    });
  }

  it('refuses an unset key reference, naming the reference, not a value', () => {
    assert.match(
      runtimeProblem({ auth: { 'api-key': { keys: ['${secrets:missing_key}'] } } }),
      /^runtime\.auth\.api-key\.keys\[0\]: '\$\{secrets:missing_key\}' is not set/,
    );
  });
});

describe('runtime.tls', () => {
  it('refuses TLS when enabled, with or without files, and accepts enabled: false', () => {
    assert.match(
      runtimeProblem({ tls: { enabled: true, certificate_file: 'c.pem', key_file: 'k.pem' } }),
      /^runtime\.tls\.enabled: TLS is not supported yet; terminate TLS in a proxy, or set enabled: false$/,
    );
    assert.match(
      runtimeProblem({ tls: { enabled: true } }),
      /^runtime\.tls\.enabled: .*no certificate and key are given/,
    );
    assert.match(runtimeProblem({ tls: { certificate: 'x' } }), /^runtime\.tls\.enabled: TLS is not supported yet/);
    assert.match(runtimeProblem({ tls: { enabled: true, cert: 'x' } }), /runtime\.tls\.cert: unknown key/);
    assert.deepEqual(parse({ tls: { enabled: false } }).warnings, []);
  });
});

describe('runtime.cors', () => {
  it("is off by default; enabled without a list allows any origin (Spice's default)", () => {
    assert.deepEqual(parse({}).cors, { enabled: false, allowedOrigins: ['*'] });
    assert.deepEqual(parse({ cors: { enabled: true } }).cors, { enabled: true, allowedOrigins: ['*'] });
  });

  it('normalizes origins and refuses what is not one', () => {
    const m = parse({
      cors: { enabled: true, allowed_origins: ['HTTPS://App.Example.com:443/', 'http://localhost:3000'] },
    });
    assert.deepEqual(m.cors.allowedOrigins, ['https://app.example.com', 'http://localhost:3000']);
    assert.match(
      runtimeProblem({ cors: { enabled: true, allowed_origins: ['https://a.example', 'https://b.example/app'] } }),
      /^runtime\.cors\.allowed_origins\[1\]: 'https:\/\/b\.example\/app' is not an origin/,
    );
    assert.match(runtimeProblem({ cors: { enabled: 'on' } }), /^runtime\.cors\.enabled: /);
  });
});

describe('runtime.http.rate_limit', () => {
  it('reads requests_per_second and burst (default: one second of requests)', () => {
    assert.equal(parse({}).rateLimit, null);
    assert.deepEqual(parse({ http: { rate_limit: { enabled: true, requests_per_second: 2.5 } } }).rateLimit, {
      requestsPerSecond: 2.5,
      burst: 3,
    });
    assert.deepEqual(parse({ http: { rate_limit: { requests_per_second: 10, burst: 50 } } }).rateLimit, {
      requestsPerSecond: 10,
      burst: 50,
    });
    assert.equal(parse({ http: { rate_limit: { enabled: false } } }).rateLimit, null);
  });

  it('refuses bad values with their key path', () => {
    const limit = (rate_limit: object) => runtimeProblem({ http: { rate_limit } });
    assert.match(limit({ enabled: true }), /^runtime\.http\.rate_limit\.requests_per_second: required when/);
    assert.match(limit({ requests_per_second: 0 }), /^runtime\.http\.rate_limit\.requests_per_second: /);
    assert.match(limit({ requests_per_second: 5, burst: 1.5 }), /^runtime\.http\.rate_limit\.burst: /);
    assert.match(limit({ requests_per_second: 5, per: 'ip' }), /^runtime\.http\.rate_limit\.per: unknown key$/);
  });
});
