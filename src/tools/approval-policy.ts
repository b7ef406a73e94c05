import { toolSection, type AppConfig } from './app-config.ts';
import type { ToolManifest } from './tool-manifest.ts';

/**
 * When a call needs a person's yes before it runs: `always`, `never`, or a rule on its parameters.
 * A tool says it in its manifest (`approval`); `tools.<name>.approval` in riverse.yaml overrides it.
 */
export type ApprovalSetting = 'always' | 'never' | ApprovalRule;

/** Approval is needed when any of the conditions holds; otherwise the call runs without asking. */
export interface ApprovalRule {
  when: ApprovalCondition | readonly ApprovalCondition[];
}

/**
 * Holds when the parameter's value matches `matches`, a JavaScript regular expression (unanchored:
 * write `^rm` for "starts with rm"). Text is tested as it is, a list item by item, anything else as
 * JSON. A parameter the call leaves out never matches.
 */
export interface ApprovalCondition {
  param: string;
  matches: string;
}

/** What is wrong with an approval setting: where (`approval.when[1].matches`), and the value found there or the regular expression's error. */
export interface ApprovalSettingProblem {
  at: string;
  got: string;
  regexError?: string;
}

/** What is wrong with a value given as an approval setting at `where`; undefined when it is one. */
export function approvalSettingProblem(value: unknown, where: string): ApprovalSettingProblem | undefined {
  if (value === 'always' || value === 'never') return undefined;
  const got = (at: string, found: unknown): ApprovalSettingProblem => ({
    at,
    got: JSON.stringify(found) ?? String(found),
  });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return got(where, value);
  if (Object.keys(value).length !== 1 || !Object.hasOwn(value, 'when')) return got(where, value);
  const when = (value as { when: unknown }).when;
  const conditions = Array.isArray(when) ? when : [when];
  if (conditions.length === 0) return got(`${where}.when`, when);
  for (const [index, condition] of conditions.entries()) {
    const at = Array.isArray(when) ? `${where}.when[${index}]` : `${where}.when`;
    if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return got(at, condition);
    const { param, matches, ...rest } = condition as Record<string, unknown>;
    if (Object.keys(rest).length > 0) return got(at, condition);
    if (typeof param !== 'string' || param === '') return got(`${at}.param`, param);
    if (typeof matches !== 'string') return got(`${at}.matches`, matches);
    const regexError = regexProblem(matches);
    if (regexError !== undefined) return { ...got(`${at}.matches`, matches), regexError };
  }
  return undefined;
}

/**
 * The setting that holds for a tool: `tools.<name>.approval` in the config, else the manifest's,
 * else `never`. A setting in the config that is not valid (config validation reports it) counts
 * as `always`: a mistake in a safety setting must not turn the safety off.
 */
export function approvalSetting(manifest: Pick<ToolManifest, 'name' | 'approval'>, config: AppConfig): ApprovalSetting {
  const section = toolSection(config, manifest.name);
  if (Object.hasOwn(section, 'approval') && section.approval !== undefined && section.approval !== null) {
    return approvalSettingProblem(section.approval, 'approval') === undefined
      ? (section.approval as ApprovalSetting)
      : 'always';
  }
  const own = manifest.approval;
  if (own === undefined) return 'never';
  return approvalSettingProblem(own, 'approval') === undefined ? own : 'always';
}

/** Whether a call with these (checked) parameters needs approval under `setting`. */
export function needsApproval(setting: ApprovalSetting, params: Readonly<Record<string, unknown>>): boolean {
  if (setting === 'always') return true;
  if (setting === 'never') return false;
  const conditions = Array.isArray(setting.when) ? setting.when : [setting.when as ApprovalCondition];
  return conditions.some(
    (condition) =>
      Object.hasOwn(params, condition.param) &&
      valueMatches(params[condition.param], new RegExp(condition.matches, 'u')),
  );
}

function valueMatches(value: unknown, pattern: RegExp): boolean {
  if (value === undefined) return false;
  if (typeof value === 'string') return pattern.test(value);
  if (Array.isArray(value))
    return value.some((item) => valueMatches(item, pattern)) || pattern.test(JSON.stringify(value));
  return pattern.test(JSON.stringify(value) ?? String(value));
}

function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source, 'u');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
