// The tool contract: what a drop-in tool file imports (listed by name in tool-api.ts).
export * from './tool-api.ts';
export { runTool, type RunToolOptions } from './tools/run-tool.ts';

// Discovery, registry and execution: what a host embedding Riverse uses.
export { ToolRegistry, DEFAULT_TOOL_FOLDER, type ToolCall, type ToolListing, type ToolRegistryOptions } from './tools/tool-registry.ts';
export { LiveToolRegistry, type ToolChange, type ToolChangeEvent, type ToolChangeListener } from './tools/live-registry.ts';
export type { Isolation } from './tools/load-files.ts';
export type { RegisteredTool } from './tools/registered-tool.ts';
export type { ExecuteOptions } from './tools/execute-tool.ts';
export { formatDiagnostic, type Diagnostic, type DiagnosticCode } from './tools/diagnostic.ts';
export { validateManifest, type ManifestProblem } from './tools/validate-manifest.ts';
export { parametersSchema, type JsonSchema } from './tools/parameter-schema.ts';
export { toolSignature } from './tools/tool-signature.ts';

// Config.
export { loadConfig, parseConfig, ConfigError, CONFIG_FILE, type LoadedConfig } from './config/load-config.ts';

// The assistant: one turn, sessions, languages.
export { Assistant, type AssistantOptions, type TurnRequest } from './assistant/assistant.ts';
export { runTurn, type TurnOptions } from './assistant/run-turn.ts';
export type { StopReason, ToolCallRecord, TurnEvent, TurnResult } from './assistant/turn-events.ts';
export { detectLanguage } from './assistant/detect-language.ts';

// Models.
export type { ChatMessage, ToolCallRequest } from './models/chat-message.ts';
export type { ChatModel, FinishReason, ModelEvent, ModelRequest, ToolCallingMode, ToolDefinition, Usage } from './models/chat-model.ts';
export { ModelError, type ModelErrorCode } from './models/model-error.ts';
export { createOpenAICompatibleModel } from './models/openai-compatible.ts';
export { resolveModel, type ModelOptions } from './models/resolve-model.ts';

// Sessions.
export { SessionStore, type SessionInfo } from './store/session-store.ts';
export { defaultDataDir } from './store/data-dir.ts';
