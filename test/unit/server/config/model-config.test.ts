// The manifest's `models:`: defaults, each problem named by its key, warnings, and the API key in no message.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secrets:X}` is the manifest syntax under test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Manifest, parseManifest } from '../../../../server/config/manifest.js';
import {
  DEFAULT_MODEL_ENDPOINT,
  DEFAULT_MODEL_TIMEOUT_MS,
  defaultModelConcurrency,
} from '../../../../server/config/model-config.js';
import { MANIFEST_BASE, manifestProblem } from '../../../helpers/manifest-runtime.js';

const KEY = 'sk-Secret-K3y-0123456789abcdef';
const DATASETS = [
  { from: 'file:a.parquet', name: 'orders' },
  { from: 'file:b.parquet', name: 'Customers' },
];

function load(models: object[], env: NodeJS.ProcessEnv = { OPENAI_KEY: KEY }): Manifest {
  return parseManifest({ ...MANIFEST_BASE, datasets: DATASETS, models }, '/b', env);
}

function problem(models: object[]): string {
  const message = manifestProblem(() => load(models));
  assert.ok(!message.includes(KEY), `the key leaked: ${message}`);
  return message;
}

const model = (params: object = {}, extra: object = {}) => ({
  name: 'nql',
  from: 'openai:gpt-4o-mini',
  params,
  ...extra,
});

describe('models in the manifest', () => {
  it('defaults: OpenAI endpoint, 30 s time-out, max(2, cores) at once, all datasets, no key', () => {
    const m = load([model()]);
    assert.deepEqual(m.models, [
      {
        name: 'nql',
        from: 'openai:gpt-4o-mini',
        model: 'gpt-4o-mini',
        endpoint: DEFAULT_MODEL_ENDPOINT,
        timeoutMs: DEFAULT_MODEL_TIMEOUT_MS,
        maxConcurrent: defaultModelConcurrency(),
        datasets: [],
      },
    ]);
    assert.ok(defaultModelConcurrency() >= 2);
    assert.deepEqual(m.warnings, []);
  });

  it('reads every param; the key from a secret; a trailing slash off the endpoint', () => {
    const m = load([
      model(
        {
          endpoint: 'http://127.0.0.1:8080/v1/',
          openai_api_key: '${secrets:openai_key}',
          temperature: 0.2,
          max_tokens: '512',
          system_prompt: 'Answer with SQL.',
          timeout: '1m 30s',
          max_concurrent: 3,
        },
        { datasets: ['orders', 'customers'] },
      ),
    ]);
    const c = m.models[0];
    assert.equal(c?.endpoint, 'http://127.0.0.1:8080/v1');
    assert.equal(c?.apiKey, KEY);
    assert.equal(c?.temperature, 0.2);
    assert.equal(c?.maxTokens, 512);
    assert.equal(c?.systemPrompt, 'Answer with SQL.');
    assert.equal(c?.timeoutMs, 90_000);
    assert.equal(c?.maxConcurrent, 3);
    assert.deepEqual(c?.datasets, ['orders', 'customers']);
    assert.deepEqual(m.warnings, []);
  });

  it('temperature outside 0-0.3 warns; outside 0-2 is refused', () => {
    const m = load([model({ temperature: 0.7 })]);
    assert.equal(m.models[0]?.temperature, 0.7);
    assert.deepEqual(m.warnings, [
      'models[0].params.temperature: 0.7 is outside 0.0-0.3, where SQL generation is steadiest',
    ]);
    assert.deepEqual(load([model({ temperature: 0 })]).warnings, []);
    assert.deepEqual(load([model({ temperature: 0.3 })]).warnings, []);
    assert.match(problem([model({ temperature: 2.5 })]), /^models\[0\]\.params\.temperature: expected 0 to 2$/);
    assert.match(problem([model({ temperature: -0.1 })]), /^models\[0\]\.params\.temperature: expected 0 to 2$/);
    assert.match(problem([model({ temperature: 'warm' })]), /^models\[0\]\.params\.temperature: expected a number$/);
  });

  it('unknown params and files warn by key and are ignored', () => {
    const m = load([model({ openai_temperature: 0.1, tools: 'auto' }, { files: [{ path: 'x' }] })]);
    assert.deepEqual(m.warnings, [
      'models[0].params.openai_temperature: not supported yet; ignored',
      'models[0].params.tools: not supported yet; ignored',
      'models[0].files: not supported yet; ignored',
    ]);
  });

  it('every problem names its key, all at once', () => {
    const message = problem([
      model({ endpoint: 'ftp://x', max_tokens: 0, timeout: 'soon', max_concurrent: 1.5, openai_api_key: KEY }),
    ]);
    assert.deepEqual(message.split('\n'), [
      'models[0].params.endpoint: expected an http(s):// URL',
      'models[0].params.max_tokens: expected a positive integer',
      'models[0].params.max_concurrent: expected a positive integer',
      'models[0].params.timeout: invalid duration (e.g. 30s)',
    ]);
    assert.match(problem([model({ timeout: { s: 1 } })]), /models\[0\]\.params\.timeout: invalid duration/);
    assert.match(problem([{ from: 'openai:x' }]), /models\[0\]\.name/);
    assert.match(problem([{ ...model(), colour: 'red' }]), /colour/);
  });

  it('a dataset the manifest does not declare is refused; names match case-insensitively', () => {
    assert.equal(
      problem([model({}, { datasets: ['orders', 'lineitem'] })]),
      "models[0].datasets: dataset 'lineitem' is not declared",
    );
    assert.deepEqual(load([model({}, { datasets: ['ORDERS'] })]).models[0]?.datasets, ['ORDERS']);
  });

  it('a provider other than openai is refused as not supported yet; openai without a model too', () => {
    assert.equal(
      problem([{ name: 'c', from: 'anthropic:claude-3' }]),
      "models[0].from: model provider 'anthropic' is not supported yet (floe calls 'openai:<model>' endpoints)",
    );
    assert.match(
      problem([{ name: 'h', from: 'huggingface:huggingface.co/x/y' }]),
      /'huggingface' is not supported yet/,
    );
    assert.equal(
      problem([{ name: 'o', from: 'openai' }]),
      'models[0].from: expected openai:<model> (e.g. openai:gpt-4o-mini)',
    );
    assert.equal(load([{ name: 'o', from: 'OpenAI:gpt-4o' }]).models[0]?.model, 'gpt-4o');
  });

  it('a model name twice is refused', () => {
    assert.equal(
      problem([model(), { name: 'NQL', from: 'openai:x' }]),
      "models[1].name: model 'NQL' is already declared at models[0]",
    );
  });

  it('the API key appears in no problem or warning, whatever else is wrong', () => {
    // A key pasted into the wrong param: the problem names the param, never its value.
    const bad = model({ openai_api_key: KEY, temperature: 9, endpoint: KEY, max_tokens: KEY, timeout: KEY });
    const message = problem([bad]);
    assert.match(message, /params\.temperature/);
    const m = load([model({ openai_api_key: '${secrets:openai_key}', temperature: 1, unknown_param: KEY })]);
    for (const w of m.warnings) assert.ok(!w.includes(KEY), w);
    assert.equal(m.warnings.length, 2);
  });
});
