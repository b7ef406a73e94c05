import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

/**
 * A small OTLP/HTTP receiver for the tests (no Collector can be installed here): it takes what the
 * official exporters post to `/v1/traces`, protobuf (decoded with protobufjs against the OTLP trace
 * protos below, opentelemetry-proto v1.x) or JSON (read as is), and keeps each request's spans in
 * one shape, ids as lowercase hex.
 */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package opentelemetry.proto;

message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope {
  string name = 1;
  string version = 2;
  repeated KeyValue attributes = 3;
  uint32 dropped_attributes_count = 4;
}
message Resource {
  repeated KeyValue attributes = 1;
  uint32 dropped_attributes_count = 2;
}
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans {
  Resource resource = 1;
  repeated ScopeSpans scope_spans = 2;
  string schema_url = 3;
}
message ScopeSpans {
  InstrumentationScope scope = 1;
  repeated Span spans = 2;
  string schema_url = 3;
}
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  fixed32 flags = 16;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  uint32 dropped_attributes_count = 10;
  repeated Event events = 11;
  uint32 dropped_events_count = 12;
  repeated Link links = 13;
  uint32 dropped_links_count = 14;
  Status status = 15;
  message Event {
    fixed64 time_unix_nano = 1;
    string name = 2;
    repeated KeyValue attributes = 3;
    uint32 dropped_attributes_count = 4;
  }
  message Link {
    bytes trace_id = 1;
    bytes span_id = 2;
    string trace_state = 3;
    repeated KeyValue attributes = 4;
    uint32 dropped_attributes_count = 5;
    fixed32 flags = 6;
  }
}
message Status {
  reserved 1;
  string message = 2;
  int32 code = 3;
}
`;

const REQUEST = protobuf
  .parse(OTLP_TRACE_PROTO, { keepCase: false })
  .root.lookupType('opentelemetry.proto.ExportTraceServiceRequest');

export type AttributeValue = string | number | boolean | AttributeValue[];

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  startNanos: bigint;
  endNanos: bigint;
  attributes: Record<string, AttributeValue>;
  /** OTLP's numbers: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  scope: string;
}

export interface ReceivedExport {
  contentType: string;
  headers: IncomingHttpHeaders;
  path: string;
  resource: Record<string, AttributeValue>;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  /** The base URL (`http://127.0.0.1:port`), for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  exports: ReceivedExport[];
  /** Every span received so far. */
  spans(): ReceivedSpan[];
  /** Settles once `count` spans have come (or throws after the test runner's own timeout). */
  waitForSpans(count: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 and a free port; `status` answers every export (200 by default; 503 for a collector that fails). */
export async function startOtlpReceiver(options: { status?: number } = {}): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const waiters: { count: number; resolve: (spans: ReceivedSpan[]) => void }[] = [];
  const all = () => exports.flatMap((received) => received.spans);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = request.headers['content-type'] ?? '';
      const status = options.status ?? 200;
      if (status === 200) {
        const decoded = contentType.includes('json') ? JSON.parse(body.toString('utf8')) : fromProtobuf(body);
        for (const resourceSpans of (decoded.resourceSpans ?? []) as RawResourceSpans[])
          exports.push({
            contentType,
            headers: request.headers,
            path: request.url ?? '',
            resource: attributes(resourceSpans.resource?.attributes),
            spans: (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
              (scope.spans ?? []).map((span) => receivedSpan(span, scope.scope?.name ?? '')),
            ),
          });
        const spans = all();
        for (const waiter of [...waiters])
          if (spans.length >= waiter.count) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(spans);
          }
      }
      response.writeHead(status, {
        'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf',
      });
      response.end(contentType.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans: all,
    waitForSpans: (count) => {
      const spans = all();
      if (spans.length >= count) return Promise.resolve(spans);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface RawValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: RawValue[] };
}
interface RawKeyValue {
  key: string;
  value?: RawValue;
}
interface RawSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: RawKeyValue[];
  status?: { code?: number; message?: string };
}
interface RawResourceSpans {
  resource?: { attributes?: RawKeyValue[] };
  scopeSpans?: { scope?: { name?: string }; spans?: RawSpan[] }[];
}

/** The protobuf body as the JSON form's object: ids as hex (the JSON encoding's), 64-bit numbers as text. */
function fromProtobuf(body: Buffer): { resourceSpans?: RawResourceSpans[] } {
  const message = REQUEST.decode(body);
  const object = REQUEST.toObject(message, { longs: String, bytes: Buffer, defaults: false, oneofs: false });
  const hex = (value: unknown) => (Buffer.isBuffer(value) ? value.toString('hex') : '');
  for (const resourceSpans of (object.resourceSpans ?? []) as RawResourceSpans[])
    for (const scope of resourceSpans.scopeSpans ?? [])
      for (const span of scope.spans ?? []) {
        span.traceId = hex(span.traceId);
        span.spanId = hex(span.spanId);
        span.parentSpanId = hex(span.parentSpanId);
      }
  return object;
}

function receivedSpan(span: RawSpan, scope: string): ReceivedSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId ?? '',
    traceState: span.traceState ?? '',
    name: span.name,
    kind: span.kind,
    startNanos: BigInt(span.startTimeUnixNano),
    endNanos: BigInt(span.endTimeUnixNano),
    attributes: attributes(span.attributes),
    status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
    scope,
  };
}

function attributes(list: RawKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, anyValue(value)]));
}

function anyValue(value: RawValue | undefined): AttributeValue {
  if (value === undefined) return '';
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(anyValue);
  return '';
}
