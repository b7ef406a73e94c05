// The public API of the `riverse` package: everything here is named on purpose, and nothing else is
// reachable (package.json exports no deep paths, and members tagged internal in their doc comment
// are left out of the published types: stripInternal). Every type a caller receives or passes is
// exported, so it can be named; src/package.test.ts holds that promise against the built package.
// (This comment must not carry the tag itself: it would strip the first export below.)

// First, before anything else runs: on a Node too old, say which one Riverse needs.
import './core/node-version.ts';

// The tool contract: what a drop-in tool file imports (in a tool worker, 'riverse' is tool-api.ts alone).
export {
  BaseTool,
  ContextUnavailable,
  isToolClass,
  LANGUAGES,
  localize,
  localizeList,
  safeFetch,
  safeFetchSettings,
  SafeFetchError,
  toolSection,
  ToolResult,
  type AppConfig,
  type ApprovalCondition,
  type ApprovalRule,
  type ApprovalSetting,
  type AskAnswer,
  type AskFields,
  type AskQuestion,
  type FieldText,
  type BooleanField,
  type ChoiceField,
  type FormField,
  type FormValue,
  type FormValues,
  type MultiChoiceField,
  type NumberField,
  type TextField,
  type AudioPart,
  type ContentPart,
  type ImagePart,
  type ResourcePart,
  type TextPart,
  type AskOptions,
  type AskPerson,
  type ListRoots,
  type ModelPreferences,
  type Root,
  type RootsList,
  type SampleRequest,
  type SampleResult,
  type SamplingContent,
  type SamplingMessage,
  type FindResultPart,
  type CheckedToolResult,
  type ToolResultFields,
  type AskFirst,
  type JsonSchemaObject,
  type LongRunning,
  type LogReport,
  type ProgressReport,
  type ReportLevel,
  type ReportLog,
  type ReportProgress,
  type Language,
  type LocalizedList,
  type LocalizedText,
  type Parameter,
  type ParameterSpec,
  type ParameterType,
  type SafeFetchOptions,
  type SafeResponse,
  type ToolClass,
  type ToolContext,
  type ToolErrorCode,
  type ToolLogger,
  type ToolAnnotations,
  type ToolManifest,
  type ToolsConfig,
  type ToolSection,
} from './tool-api.ts';
export { runTool, type RunToolOptions } from './tool-runtime/run-tool.ts';

// Discovery, registry and execution: what a host embedding Riverse uses.
export {
  ToolRegistry,
  DEFAULT_TOOL_FOLDER,
  type ToolCall,
  type ToolListing,
  type ToolRegistryOptions,
} from './tool-runtime/tool-registry.ts';
export {
  LiveToolRegistry,
  type ToolChange,
  type ToolChangeEvent,
  type ToolChangeListener,
} from './tool-runtime/live-registry.ts';
export type { SourceTools, ToolSource } from './tool-runtime/tool-source.ts';
export type { RemoteTaskRef } from './tool-runtime/remote-task-ref.ts';
// riverse.yaml's `mcp:` (the servers' tools reach a registry as a ToolSource). Types only: importing
// 'riverse' does not load the MCP SDK (about 80 ms); `riverse mcp` and `riverse serve` do.
export type { McpConfig, McpOAuthSettings, McpServerSettings, McpSettings } from './mcp/mcp-settings.ts';
export type { Isolation } from './tools/app-config.ts';
export type { ToolInfo } from './tool-runtime/load-tool-file.ts';
export type { RegisteredTool } from './tool-runtime/registered-tool.ts';
export type {
  StartTaskRequest,
  TaskFilter,
  TaskInputPort,
  TaskInputResponse,
  TaskOrigin,
  TaskLogLine,
  TaskProgress,
  TaskRecord,
  TaskRunner,
  TaskStatus,
} from './tasks/task-types.ts';
export type { ApprovalGateAnswer, ExecuteOptions } from './tool-runtime/execute-tool.ts';
export type { Dialect } from './schema/dialect.ts';
export { compileSchema } from './schema/compile-schema.ts';
export type { SchemaNode, JsonType } from './schema/schema-node.ts';
export { formatDiagnostic, localizeDiagnostic, type Diagnostic, type DiagnosticCode } from './core/diagnostic.ts';
export { localizeReason, renderPhrase, type Phrase, type PhraseArg } from './core/phrase.ts';
export { validateManifest, type ManifestProblem } from './tool-runtime/validate-manifest.ts';
export { parametersSchema, type JsonSchema } from './tool-runtime/parameter-schema.ts';
export { toolSignature } from './tool-runtime/tool-signature.ts';

// Config.
export {
  loadConfig,
  parseConfig,
  ConfigError,
  CONFIG_FILE,
  type ConfigFault,
  type LoadedConfig,
} from './config/load-config.ts';
export type { RiverseConfig } from './config/riverse-config.ts';
export type { AssistantConfig, AssistantSettings } from './assistant/assistant-settings.ts';
export type { EmbeddingsSettings, RoutingConfig, RoutingSettings } from './routing/routing-settings.ts';
export type { SamplingRule, ServerConfig, ServerSettings, StopRule, V1Settings } from './server/server-config.ts';
export type { TelemetryConfig, TelemetrySettings } from './telemetry/telemetry-settings.ts';
export type {
  StoreConfig,
  StoreSettings,
  TaskRetentionSettings,
  TraceRetentionSettings,
} from './store/store-settings.ts';

// The assistant: one turn, sessions, languages.
export { Assistant, type AssistantOptions, type CompletionRequest, type TurnRequest } from './assistant/assistant.ts';
export type { TurnExport, TurnExtras } from './telemetry/turn-export.ts';
export type { TraceContext } from './core/trace-context.ts';
export { CallMemory, type CallMemoryOptions } from './assistant/call-memory.ts';
export {
  Approvals,
  DEFAULT_APPROVAL_TIMEOUT_MS,
  type AnswerOutcome,
  type ApprovalAnswer,
  type ApprovalDecision,
  type ApprovalOutcome,
  type ApprovalsOptions,
  type PendingApproval,
  type PendingQuestion,
  type PendingRequest,
  type QuestionAnswer,
} from './assistant/approvals.ts';
export type { TurnApprovals } from './assistant/approval-gate.ts';
export type { ClientTool } from './assistant/client-tools.ts';
export type { StopReason, ToolCallRecord, TurnEvent, TurnResult } from './assistant/turn-events.ts';
export { TURN_ERROR_CODES, type TurnErrorCode } from './assistant/turn-error-codes.ts';
export { detectLanguage } from './assistant/detect-language.ts';

// Routing: choosing the few relevant tools out of many.
export { ToolRouter, type RoutableTool, type ToolRouterOptions } from './routing/tool-router.ts';
export { SemanticIndex } from './routing/embeddings/semantic-index.ts';
export { EmbeddingCache } from './routing/embeddings/embedding-cache.ts';
export { EmbeddingError, type EmbeddingModel } from './routing/embeddings/embedding-model.ts';
export { createOpenAIEmbeddings, type OpenAIEmbeddingsOptions } from './routing/embeddings/openai-embeddings.ts';
export { ToolIndex, type RankingOptions, type RouteHit } from './routing/tool-index.ts';
export { routeDocOf, type RouteDoc } from './routing/route-doc.ts';
export type { WeightedTerms } from './routing/route-terms.ts';

// Models: the interface an adapter implements, the adapters, and choosing one from the config.
export type { ChatMessage, ImageLink, MessageImage, ToolCallRequest } from './models/chat-message.ts';
export type {
  ChatModel,
  FinishReason,
  ModelEvent,
  ModelRequest,
  ResponseFormat,
  RetryNotice,
  SamplingSettings,
  ToolCallingMode,
  ToolChoice,
  ToolDefinition,
  Usage,
} from './models/chat-model.ts';
export { ModelError, type ModelErrorCode, type ModelLimit } from './models/model-error.ts';
export type { RequestOptions } from './models/model-request.ts';
export {
  createOpenAICompatibleModel,
  type OpenAICompatibleOptions,
} from './models/providers/openai/openai-compatible.ts';
export { createAnthropicModel, type AnthropicOptions } from './models/providers/anthropic/anthropic.ts';
export { createGeminiModel, type GeminiOptions } from './models/providers/gemini/gemini.ts';
export { createLocalModel, type LocalModelOptions } from './models/providers/local/local-llama.ts';
export {
  chooseModel,
  resolveModel,
  type ChooseModelOptions,
  type DownloadOffer,
  type ModelConfig,
  type ModelOptions,
} from './models/resolve-model.ts';

// Sessions: one async Store, SQLite by default or PostgreSQL (decision 037).
export type {
  ApprovalRepository,
  OAuthTokenRepository,
  QuestionRepository,
  ResponseRepository,
  RunningTurnRepository,
  Store,
  StoreEvents,
  StoreOptions,
  TaskInputRepository,
  TaskRepository,
  ToolSwitchRepository,
  TurnTraceRepository,
} from './store/store.ts';
export { chooseStore, openStore, type StoreChoice } from './store/open-store.ts';
export { SqliteStore } from './store/sqlite-store.ts';
import { SqliteStore } from './store/sqlite-store.ts';
import type { StoreOptions } from './store/store.ts';
/** @deprecated The SQLite store is `SqliteStore` now (open any store with `openStore`). */
export const SessionStore = SqliteStore;
/** @deprecated `SqliteStore`. */
export type SessionStore = SqliteStore;
/** @deprecated `StoreOptions`. */
export type SessionStoreOptions = StoreOptions;
export {
  SessionNameTakenError,
  type ApprovalRecord,
  type ApprovalRun,
  type ApprovalStatus,
  type KeptTokens,
  type NewApproval,
  type NewQuestion,
  type NewTaskInput,
  type OAuthClient,
  type QuestionRecord,
  type QuestionSettlement,
  type QuestionStatus,
  type RunningTurn,
  type StoredTurnTrace,
  type SessionInfo,
  type SessionSummary,
  type StoredResponse,
  type StoredTrace,
  type TaskInputRecord,
  type TaskInputStatus,
  type TaskRetention,
  type ToolCallQuery,
  type TraceQuery,
  type TraceRetention,
  type TurnTraceQuery,
  type TurnTraceSummary,
} from './store/store-records.ts';
export type { ToolCallTrace } from './store/tool-call-trace.ts';
export { ApprovalStore, type ApprovalRecords } from './store/approval-store.ts';
export { ResponseStore } from './store/response-store.ts';
export { TraceStore, type TraceStoreParts } from './store/trace-store.ts';
export type { HandRunVia, SpanAttribute, SpanKind, TraceSpan, TurnTrace } from './store/turn-trace.ts';
export type { TracePart, TraceProgress } from './store/trace-parts.ts';
export type { ToolFigures, ToolSeries, ToolStats, ToolStatsQuery } from './store/tool-call-stats.ts';
export { defaultDataDir } from './store/data-dir.ts';
export { TaskStore, memoryTasks, type TaskRecords } from './store/task-store.ts';

// Tasks: tool calls that outlive their turn (decision 032).
export {
  LocalTaskRunner,
  type ResumeRemoteTask,
  type RunningCall,
  type RunTaskCall,
  type TaskCallHooks,
  type TaskRunnerOptions,
} from './tasks/task-runner.ts';
export type { TaskInputs } from './tasks/task-inputs.ts';
export type { TaskDelivery } from './assistant/task-delivery.ts';
