export { BaseTool, isToolClass, type ToolClass } from './tools/base-tool.ts';
export { ToolResult, type ToolErrorCode } from './tools/tool-result.ts';
export type { ToolContext, ToolLogger } from './tools/tool-context.ts';
export type { AppConfig, ToolsConfig, ToolSection } from './tools/app-config.ts';
export {
  localize,
  localizeList,
  LANGUAGES,
  type Language,
  type LocalizedList,
  type LocalizedText,
  type Parameter,
  type ParameterSpec,
  type ParameterType,
  type ToolManifest,
} from './tools/tool-manifest.ts';
