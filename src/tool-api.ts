// What a tool file gets from `import … from 'riverse'` inside a tool worker: the contract only,
// so that starting a worker loads a handful of small modules instead of all of Riverse.
export { BaseTool, isToolClass, type ToolClass } from './tools/base-tool.ts';
export { ToolResult, type CheckedToolResult, type ToolErrorCode, type ToolResultFields } from './tools/tool-result.ts';
export type { AudioPart, ContentPart, ImagePart, ResourcePart, TextPart } from './tools/content-part.ts';
export type {
  AskAnswer,
  AskOptions,
  AskPerson,
  AskQuestion,
  FindResultPart,
  ToolContext,
  ToolLogger,
} from './tools/tool-context.ts';
export type {
  AskFields,
  BooleanField,
  ChoiceField,
  FieldText,
  FormField,
  FormValue,
  FormValues,
  MultiChoiceField,
  NumberField,
  TextField,
} from './tools/ask-form.ts';
export {
  ContextUnavailable,
  type ModelPreferences,
  type SampleRequest,
  type SampleResult,
  type SamplingContent,
  type SamplingMessage,
} from './tools/sample-request.ts';
export type { ListRoots, Root, RootsList } from './tools/client-roots.ts';
export type { ApprovalCondition, ApprovalRule, ApprovalSetting } from './tools/approval-policy.ts';
export { toolSection, type AppConfig, type ToolsConfig, type ToolSection } from './tools/app-config.ts';
export type {
  AskFirst,
  JsonSchemaObject,
  LongRunning,
  Parameter,
  ParameterSpec,
  ParameterType,
  ToolAnnotations,
  ToolManifest,
} from './tools/tool-manifest.ts';
export type { LogReport, ProgressReport, ReportLevel, ReportLog, ReportProgress } from './tools/call-report.ts';
export {
  localize,
  localizeList,
  LANGUAGES,
  type Language,
  type LocalizedList,
  type LocalizedText,
} from './core/language.ts';
export {
  safeFetch,
  safeFetchSettings,
  SafeFetchError,
  type SafeFetchOptions,
  type SafeResponse,
} from './tools/safe-fetch.ts';
