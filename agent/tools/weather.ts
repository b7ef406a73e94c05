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

/** Its failures, in the person's language: the dashboard shows them as they are, and the model reads them. */
const ERRORS = {
  en: {
    missingCity: 'Missing city: give the name of a city, e.g. {"city": "Tokyo"}.',
    cancelled: 'The weather request was cancelled.',
    timeout: (seconds: number) => `The weather service did not answer within ${seconds} s; try again later.`,
    unreachable: (base: string, why: string) =>
      `Cannot reach the weather service at ${base} (${why}); check the network, or tools.weather.base_url in riverse.yaml.`,
    unknownPlace: (city: string) =>
      `The weather service does not know the place "${city}"; check the spelling or try a nearby larger city.`,
    http: (status: string) => `The weather service answered HTTP ${status}; try again later.`,
    notJson: 'The weather service sent an answer that is not JSON.',
    noConditions: 'The weather service sent an answer without current conditions.',
  },
  zh: {
    missingCity: '缺少城市：请给出城市名，例如 {"city": "Tokyo"}。',
    cancelled: '天气查询已取消。',
    timeout: (seconds: number) => `天气服务在 ${seconds} 秒内没有回应，请稍后再试。`,
    unreachable: (base: string, why: string) =>
      `无法连接天气服务 ${base}（${why}）；请检查网络，或 riverse.yaml 中的 tools.weather.base_url。`,
    unknownPlace: (city: string) => `天气服务不认识地点“${city}”；请检查拼写，或换一个附近的大城市。`,
    http: (status: string) => `天气服务返回了 HTTP ${status}，请稍后再试。`,
    notJson: '天气服务返回的内容不是 JSON。',
    noConditions: '天气服务返回的内容中没有当前天气。',
  },
  ja: {
    missingCity: '都市がありません。都市名を指定してください（例：{"city": "Tokyo"}）。',
    cancelled: '天気の問い合わせは取り消されました。',
    timeout: (seconds: number) =>
      `天気サービスが ${seconds} 秒以内に応答しませんでした。しばらくしてからお試しください。`,
    unreachable: (base: string, why: string) =>
      `天気サービス ${base} に接続できません（${why}）。ネットワーク、または riverse.yaml の tools.weather.base_url を確認してください。`,
    unknownPlace: (city: string) =>
      `天気サービスは「${city}」という場所を知りません。綴りを確認するか、近くの大きな都市で試してください。`,
    http: (status: string) => `天気サービスが HTTP ${status} を返しました。しばらくしてからお試しください。`,
    notJson: '天気サービスの応答が JSON ではありません。',
    noConditions: '天気サービスの応答に現在の天気がありません。',
  },
} satisfies Record<Language, unknown>;

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
    const say = ERRORS[context.language] ?? ERRORS.en;
    const city = (params.city ?? '').trim();
    if (city === '') return ToolResult.fail(say.missingCity);

    const baseUrl = String(context.config.base_url ?? 'https://wttr.in').replace(/\/+$/, '');
    const timeoutMs = Number(context.config.timeout_ms ?? 10_000);
    const url = `${baseUrl}/${encodeURIComponent(city)}?format=j1&lang=${context.language}`;

    // The time limit and a cancellation cover the whole answer, body included.
    const timeout = AbortSignal.timeout(timeoutMs);
    const stopped = (): ToolResult | undefined => {
      if (context.signal.aborted) return ToolResult.fail(say.cancelled);
      if (timeout.aborted) return ToolResult.fail(say.timeout(timeoutMs / 1000));
      return undefined;
    };

    let response: Response;
    try {
      response = await fetch(url, {
        signal: AbortSignal.any([context.signal, timeout]),
        headers: { accept: 'application/json' },
      });
    } catch (error) {
      return stopped() ?? ToolResult.fail(say.unreachable(baseUrl, networkReason(error)));
    }
    if (response.status === 404) return ToolResult.fail(say.unknownPlace(city));
    if (!response.ok) return ToolResult.fail(say.http(`${response.status} ${response.statusText}`));

    let report: WttrReport;
    try {
      report = (await response.json()) as WttrReport;
    } catch {
      return stopped() ?? ToolResult.fail(say.notJson);
    }
    const now = report.current_condition?.[0];
    if (now?.temp_C === undefined) return ToolResult.fail(say.noConditions);

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
