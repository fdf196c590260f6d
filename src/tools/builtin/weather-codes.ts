/** Short Korean and English words for each WMO weather interpretation code Open-Meteo uses. */
const descriptions: Record<number, string> = {
  0: '맑음 / clear sky',
  1: '대체로 맑음 / mainly clear',
  2: '구름 조금 / partly cloudy',
  3: '흐림 / overcast',
  45: '안개 / fog',
  48: '서리 안개 / depositing rime fog',
  51: '약한 이슬비 / light drizzle',
  53: '이슬비 / moderate drizzle',
  55: '강한 이슬비 / dense drizzle',
  56: '약한 어는 이슬비 / light freezing drizzle',
  57: '강한 어는 이슬비 / dense freezing drizzle',
  61: '약한 비 / slight rain',
  63: '비 / moderate rain',
  65: '강한 비 / heavy rain',
  66: '약한 어는 비 / light freezing rain',
  67: '강한 어는 비 / heavy freezing rain',
  71: '약한 눈 / slight snow',
  73: '눈 / moderate snow',
  75: '강한 눈 / heavy snow',
  77: '싸락눈 / snow grains',
  80: '약한 소나기 / slight rain showers',
  81: '소나기 / moderate rain showers',
  82: '강한 소나기 / violent rain showers',
  85: '약한 눈 소나기 / slight snow showers',
  86: '강한 눈 소나기 / heavy snow showers',
  95: '뇌우 / thunderstorm',
  96: '약한 우박을 동반한 뇌우 / thunderstorm with slight hail',
  99: '강한 우박을 동반한 뇌우 / thunderstorm with heavy hail',
};

/**
 * Korean and English words for a WMO weather code, for the model to quote.
 * @example describeWeatherCode(61) // '약한 비 / slight rain'
 */
export function describeWeatherCode(code: number | null | undefined): string {
  if (code === null || code === undefined) return '알 수 없음 / unknown';
  return descriptions[code] ?? `알 수 없음 / unknown (WMO code ${code})`;
}
