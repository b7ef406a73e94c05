import type { SamplingSettings } from '../../models/chat-model.ts';
import { SAMPLING_RANGES, type NumericSamplingField } from '../../models/sampling-ranges.ts';
import type { V1Settings } from '../server-config.ts';

/**
 * The client's sampling fields after `server.v1`'s rules: `ignore` drops a field, `{ min, max }`
 * holds it within bounds, `{ pin }` sets it whatever the client sent (or did not), `allow`
 * (default) passes it on. Undefined when nothing is left to send.
 */
export function applySamplingRules(
  requested: SamplingSettings,
  rules: V1Settings | null | undefined,
): SamplingSettings | undefined {
  const out: SamplingSettings = {};
  for (const [field, range] of Object.entries(SAMPLING_RANGES) as [
    NumericSamplingField,
    (typeof SAMPLING_RANGES)[NumericSamplingField],
  ][]) {
    const rule = rules?.[field] ?? 'allow';
    const given = requested[range.key];
    let value: number | undefined;
    if (rule === 'allow') value = given;
    else if (rule === 'ignore') value = undefined;
    else if ('pin' in rule) value = rule.pin;
    else if (given !== undefined)
      value = Math.min(rule.max ?? Number.POSITIVE_INFINITY, Math.max(rule.min ?? Number.NEGATIVE_INFINITY, given));
    if (value !== undefined) out[range.key] = value;
  }
  const stopRule = rules?.stop ?? 'allow';
  const stop = stopRule === 'allow' ? requested.stop : stopRule === 'ignore' ? undefined : stopRule.pin;
  if (stop !== undefined && stop.length > 0) out.stop = stop;
  return Object.keys(out).length === 0 ? undefined : out;
}
