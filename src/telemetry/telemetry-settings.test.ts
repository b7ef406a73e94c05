import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { telemetryPlan, TelemetrySettingError } from './telemetry-settings.ts';

describe('the telemetry plan (telemetry: and the OTEL_* variables)', () => {
  it('is off unless something asks for it, and with none or OTEL_SDK_DISABLED', () => {
    assert.equal(telemetryPlan(undefined, {}), undefined);
    assert.equal(telemetryPlan(null, { OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_HEADERS: 'a=b' }), undefined);
    assert.equal(
      telemetryPlan(undefined, { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
      undefined,
    );
    assert.equal(
      telemetryPlan(undefined, { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
      undefined,
    );
    assert.equal(telemetryPlan({ exporter: 'none' }, { OTEL_TRACES_EXPORTER: 'otlp' }), undefined);
    // An empty variable counts as unset, as the specification says.
    assert.equal(telemetryPlan(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }), undefined);
  });

  it('reads the standard variables: the endpoint gets /v1/traces, the traces endpoint is taken whole', () => {
    const plan = telemetryPlan(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%20b,team=home',
      OTEL_SERVICE_NAME: 'home',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=lab',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'TRUE',
    });
    assert.deepEqual(plan, {
      exporter: 'otlp',
      protocol: 'http/protobuf',
      url: 'http://collector:4318/v1/traces',
      headers: { 'api-key': 'a b', team: 'home' },
      serviceName: 'home',
      resource: { 'deployment.environment': 'lab' },
      captureContent: true,
    });
    assert.equal(
      telemetryPlan(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/custom' })?.url,
      'https://c.example/custom',
    );
    // OTEL_TRACES_EXPORTER alone: the default collector on this machine.
    assert.equal(telemetryPlan(undefined, { OTEL_TRACES_EXPORTER: 'otlp' })?.url, 'http://localhost:4318/v1/traces');
    assert.equal(telemetryPlan(undefined, { OTEL_TRACES_EXPORTER: 'console' })?.exporter, 'console');
    // service.name from the resource attributes when OTEL_SERVICE_NAME is not set; riverse by default.
    assert.equal(
      telemetryPlan(undefined, { OTEL_TRACES_EXPORTER: 'otlp', OTEL_RESOURCE_ATTRIBUTES: 'service.name=r2' })
        ?.serviceName,
      'r2',
    );
    assert.equal(telemetryPlan(undefined, { OTEL_TRACES_EXPORTER: 'otlp' })?.serviceName, 'riverse');
  });

  it('a key of telemetry: wins over its variable; a key left out is read from the variable', () => {
    const plan = telemetryPlan(
      { endpoint: 'http://yaml:4318/', protocol: 'http/json', headers: { team: 'yaml' }, service_name: 'from-yaml' },
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://env:4318/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_HEADERS: 'team=env,key=env',
        OTEL_SERVICE_NAME: 'from-env',
      },
    );
    assert.equal(plan?.url, 'http://yaml:4318/v1/traces');
    assert.equal(plan?.protocol, 'http/json');
    assert.deepEqual(plan?.headers, { team: 'yaml', key: 'env' });
    assert.equal(plan?.serviceName, 'from-yaml');
  });

  it('refuses grpc, an exporter it lacks and an endpoint that is not a URL, naming the setting', () => {
    const refused = (settings: Parameters<typeof telemetryPlan>[0], env: NodeJS.ProcessEnv) => {
      try {
        telemetryPlan(settings, env);
      } catch (error) {
        assert.ok(error instanceof TelemetrySettingError);
        return { en: error.message, zh: error.localized('zh') };
      }
      assert.fail('expected a TelemetrySettingError');
    };
    const grpc = refused(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    });
    assert.match(
      grpc.en,
      /^OTEL_EXPORTER_OTLP_PROTOCOL is "grpc", but Riverse exports traces over OTLP\/HTTP only: set it to "http\/protobuf"/,
    );
    assert.match(grpc.zh, /OTEL_EXPORTER_OTLP_PROTOCOL 为 "grpc"/);
    assert.match(refused(undefined, { OTEL_TRACES_EXPORTER: 'otlp,zipkin' }).en, /OTEL_TRACES_EXPORTER names "zipkin"/);
    assert.match(
      refused({ endpoint: 'collector:4318' }, {}).en,
      /^telemetry\.endpoint is "collector:4318", which is not an http/,
    );
  });
});
