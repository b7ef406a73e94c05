import { BaseTool, ToolResult, type Language, type ToolContext, type ToolManifest } from 'riverse';

/** The slice of wttr.in's `?format=j1` answer this tool reads. */
interface WttrReport {
  current_condition?: Array<{
    temp_C?: string;
    FeelsLikeC?: string;
    humidity?: string;
    windspeedKmph?: string;
    weatherDesc?: Array<{ value?: string }>;
    [localized: `lang_${string}`]: Array<{ value?: string }> | undefined;
  }>;
}

const SUMMARY: Record<
  Language,
  (city: string, sky: string, temp: string, feels: string, humidity: string, wind: string) => string
> = {
  en: (city, sky, temp, feels, humidity, wind) =>
    `${city}: ${sky}, ${temp}°C (feels like ${feels}°C), humidity ${humidity}%, wind ${wind} km/h`,
  zh: (city, sky, temp, feels, humidity, wind) =>
    `${city}：${sky}，${temp}°C（体感 ${feels}°C），湿度 ${humidity}%，风速 ${wind} km/h`,
  ja: (city, sky, temp, feels, humidity, wind) =>
    `${city}：${sky}、${temp}°C（体感 ${feels}°C）、湿度 ${humidity}%、風速 ${wind} km/h`,
};

/**
 * The seed's example tool: current weather from wttr.in's JSON API.
 * Config (all optional): tools.weather.base_url (default https://wttr.in), tools.weather.timeout_ms (10000).
 */
export class WeatherTool extends BaseTool<{ city: string }> {
  manifest(): ToolManifest {
    return {
      name: 'weather',
      description: {
        en: 'Get the current weather for a city',
        zh: '查询指定城市的当前天气',
        ja: '指定した都市の現在の天気を調べる',
      },
      parameters: {
        city: {
          type: 'string',
          required: true,
          description: {
            en: 'City name, e.g. Tokyo, London',
            zh: '城市名，例如 东京、伦敦',
            ja: '都市名。例：東京、ロンドン',
          },
        },
      },
      examples: {
        en: ["What's the weather like in Tokyo today?", 'Is it raining in London?'],
        zh: ['东京今天天气怎么样？', '伦敦在下雨吗？'],
        ja: ['東京の今日の天気は？', 'ロンドンは雨が降っていますか？'],
      },
      timeoutMs: 15_000,
    };
  }

  async execute(params: { city: string }, context: ToolContext): Promise<ToolResult> {
    const city = (params.city ?? '').trim();
    if (city === '') return ToolResult.fail('Missing city: give the name of a city, e.g. {"city": "Tokyo"}.');

    const baseUrl = String(context.config.base_url ?? 'https://wttr.in').replace(/\/+$/, '');
    const timeoutMs = Number(context.config.timeout_ms ?? 10_000);
    const url = `${baseUrl}/${encodeURIComponent(city)}?format=j1&lang=${context.language}`;

    // The time limit and a cancellation cover the whole answer, body included.
    const timeout = AbortSignal.timeout(timeoutMs);
    const stopped = (): ToolResult | undefined => {
      if (context.signal.aborted) return ToolResult.fail('The weather request was cancelled.');
      if (timeout.aborted)
        return ToolResult.fail(`The weather service did not answer within ${timeoutMs / 1000} s; try again later.`);
      return undefined;
    };

    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.any([context.signal, timeout]),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      return (
        stopped() ??
        ToolResult.fail(
          `Cannot reach the weather service at ${baseUrl} (${networkReason(error)}); check the network, or base_url in riverse.yaml.`,
        )
      );
    }
    if (response.status === 404)
      return ToolResult.fail(
        `The weather service does not know the place "${city}"; check the spelling or try a nearby larger city.`,
      );
    if (!response.ok)
      return ToolResult.fail(
        `The weather service answered HTTP ${response.status} ${response.statusText}; try again later.`,
      );

    let report: WttrReport;
    try {
      report = (await response.json()) as WttrReport;
    } catch {
      return stopped() ?? ToolResult.fail('The weather service sent an answer that is not JSON.');
    }
    const now = report.current_condition?.[0];
    if (now?.temp_C === undefined)
      return ToolResult.fail('The weather service sent an answer without current conditions.');

    const sky = now[`lang_${context.language}`]?.[0]?.value ?? now.weatherDesc?.[0]?.value ?? '?';
    return ToolResult.ok(
      SUMMARY[context.language](
        city,
        sky,
        now.temp_C,
        now.FeelsLikeC ?? '?',
        now.humidity ?? '?',
        now.windspeedKmph ?? '?',
      ),
    );
  }
}

/** fetch says only "fetch failed"; why is in its cause: ENOTFOUND, ECONNREFUSED, a certificate error… */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' ? cause.message : String((error as Error).message ?? error);
}
