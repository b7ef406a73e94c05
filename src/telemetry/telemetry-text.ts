import type { Language } from '../core/language.ts';

// What Riverse says about its OpenTelemetry export: a setting it cannot use, an export that fails.

interface TelemetryText {
  grpc(where: string): string;
  badProtocol(where: string, value: string): string;
  badExporter(where: string, value: string): string;
  badEndpoint(where: string, value: string): string;
  exportFailed(url: string, detail: string, minutes: number): string;
}

const en: TelemetryText = {
  grpc: (where) =>
    `${where} is "grpc", but Riverse exports traces over OTLP/HTTP only: set it to "http/protobuf" (the default, port 4318) or "http/json".`,
  badProtocol: (where, value) => `${where} is ${JSON.stringify(value)}: it must be "http/protobuf" or "http/json".`,
  badExporter: (where, value) =>
    `${where} names ${JSON.stringify(value)}: Riverse exports traces with "otlp" or "console"; "none" turns the export off.`,
  badEndpoint: (where, value) =>
    `${where} is ${JSON.stringify(value)}, which is not an http:// or https:// URL (a collector's is like "http://localhost:4318").`,
  exportFailed: (url, detail, minutes) =>
    `[riverse] telemetry: spans could not be exported to ${url}: ${detail} (the turns are not affected; said at most once every ${minutes} min)`,
};

const zh: TelemetryText = {
  grpc: (where) =>
    `${where} 为 "grpc"，但 Riverse 只通过 OTLP/HTTP 导出追踪：请设为 "http/protobuf"（默认，端口 4318）或 "http/json"。`,
  badProtocol: (where, value) => `${where} 为 ${JSON.stringify(value)}：应为 "http/protobuf" 或 "http/json"。`,
  badExporter: (where, value) =>
    `${where} 指定了 ${JSON.stringify(value)}：Riverse 用 "otlp" 或 "console" 导出追踪；"none" 关闭导出。`,
  badEndpoint: (where, value) =>
    `${where} 为 ${JSON.stringify(value)}，不是 http:// 或 https:// 地址（收集器的地址形如 "http://localhost:4318"）。`,
  exportFailed: (url, detail, minutes) =>
    `[riverse] 遥测：无法把 span 导出到 ${url}：${detail}（对话不受影响；每 ${minutes} 分钟最多提示一次）`,
};

const ja: TelemetryText = {
  grpc: (where) =>
    `${where} が "grpc" ですが、Riverse はトレースを OTLP/HTTP でのみエクスポートします。"http/protobuf"（既定、ポート 4318）か "http/json" にしてください。`,
  badProtocol: (where, value) =>
    `${where} が ${JSON.stringify(value)} です。"http/protobuf" か "http/json" にしてください。`,
  badExporter: (where, value) =>
    `${where} に ${JSON.stringify(value)} が指定されています。Riverse のトレースのエクスポートは "otlp" か "console" で、"none" で無効になります。`,
  badEndpoint: (where, value) =>
    `${where} が ${JSON.stringify(value)} で、http:// または https:// の URL ではありません（コレクターの URL は "http://localhost:4318" のような形です）。`,
  exportFailed: (url, detail, minutes) =>
    `[riverse] テレメトリー：span を ${url} にエクスポートできませんでした：${detail}（ターンには影響しません。${minutes} 分に一度まで表示）`,
};

export const TELEMETRY_TEXT: Record<Language, TelemetryText> = { en, zh, ja };
