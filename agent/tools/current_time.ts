import { BaseTool, ToolResult, type ToolContext, type ToolManifest } from 'riverse';

type Params = { time_zone?: string };

/** Zones people ask for most, to show how one is written. */
const SAMPLES = 'Asia/Tokyo, Asia/Shanghai, Europe/London, America/New_York, UTC';

/**
 * The date and time now, in an IANA time zone. Config: tools.current_time.time_zone (the zone
 * used when the call names none; default: the system's).
 */
export class CurrentTimeTool extends BaseTool<Params> {
  manifest(): ToolManifest {
    return {
      name: 'current_time',
      description: {
        en: 'Get the current date and time, in a given time zone',
        zh: '获取当前日期和时间：现在几点、今天几号，可指定城市的时区',
        ja: '現在の日付と時刻を調べる：今何時か、今日は何日か。都市のタイムゾーンも指定できる',
      },
      parameters: {
        time_zone: {
          type: 'string',
          description: {
            en: `IANA time zone, e.g. ${SAMPLES}`,
            zh: `IANA 时区，例如东京是 Asia/Tokyo，纽约是 America/New_York（${SAMPLES}）`,
            ja: `IANA タイムゾーン。例：東京は Asia/Tokyo、ニューヨークは America/New_York（${SAMPLES}）`,
          },
        },
      },
      examples: {
        en: ['What time is it in Tokyo?', "What's today's date?"],
        zh: ['现在东京几点？', '今天是几号？'],
        ja: ['ニューヨークは今何時？', '今日は何日？'],
      },
      annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    };
  }

  execute(params: Params, context: ToolContext): ToolResult {
    const configured = typeof context.config.time_zone === 'string' ? context.config.time_zone : undefined;
    const zone = (params.time_zone ?? '').trim() || configured || Intl.DateTimeFormat().resolvedOptions().timeZone;
    const now = new Date();
    let local: string;
    let iso: string;
    try {
      local = new Intl.DateTimeFormat(context.language, {
        timeZone: zone,
        dateStyle: 'full',
        timeStyle: 'long',
      }).format(now);
      iso = isoInZone(now, zone);
    } catch {
      return ToolResult.fail(
        `Unknown time zone ${JSON.stringify(zone)}: give an IANA time zone name, Area/City with the city in English and underscores for spaces (${SAMPLES}), or an offset such as +09:00.`,
      );
    }
    return ToolResult.ok(`${local} (${iso}, ${zone})`);
  }
}

/** `2026-12-01T21:30:00+09:00`: the local time in the zone with its offset. */
function isoInZone(now: Date, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  const offset = String(parts.timeZoneName).replace(/^GMT/, '') || '+00:00';
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}
