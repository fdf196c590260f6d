/** A name in the two languages the weather fakes answer in. */
export interface BilingualName {
  en: string;
  ko: string;
}

/** A place the weather fakes know, with the fields geocoders report. */
export interface FakePlace {
  id: number;
  name: BilingualName;
  admin1: BilingualName;
  country: BilingualName;
  countryCode: string;
  latitude: number;
  longitude: number;
  elevation: number;
  timezone: string;
  /** Seconds east of UTC. */
  utcOffsetSeconds: number;
  population: number;
  /** WMO code of the weather now, then of each forecast day (repeated as needed). */
  weatherCodes: number[];
  /** Temperature now, in °C; the forecast varies around it. */
  temperature: number;
}

/** The places the weather fakes (Open-Meteo, OpenWeather) know, with real coordinates. */
export const fakePlaces: readonly FakePlace[] = [
  {
    id: 1835848,
    name: { en: 'Seoul', ko: '서울' },
    admin1: { en: 'Seoul', ko: '서울특별시' },
    country: { en: 'South Korea', ko: '대한민국' },
    countryCode: 'KR',
    latitude: 37.566,
    longitude: 126.9784,
    elevation: 38,
    timezone: 'Asia/Seoul',
    utcOffsetSeconds: 32_400,
    population: 10_349_312,
    weatherCodes: [0, 2, 61, 3, 80, 95, 71],
    temperature: 18.3,
  },
  {
    id: 1838524,
    name: { en: 'Busan', ko: '부산' },
    admin1: { en: 'Busan', ko: '부산광역시' },
    country: { en: 'South Korea', ko: '대한민국' },
    countryCode: 'KR',
    latitude: 35.10168,
    longitude: 129.03004,
    elevation: 16,
    timezone: 'Asia/Seoul',
    utcOffsetSeconds: 32_400,
    population: 3_678_555,
    weatherCodes: [63, 61, 3, 1, 0, 2, 45],
    temperature: 16.8,
  },
  {
    id: 2643743,
    name: { en: 'London', ko: '런던' },
    admin1: { en: 'England', ko: '잉글랜드' },
    country: { en: 'United Kingdom', ko: '영국' },
    countryCode: 'GB',
    latitude: 51.50853,
    longitude: -0.12574,
    elevation: 25,
    timezone: 'Europe/London',
    utcOffsetSeconds: 3_600,
    population: 8_961_989,
    weatherCodes: [3, 51, 53, 3, 2, 80, 61],
    temperature: 11.2,
  },
];

/** The place whose Korean or English name is `name` (case-insensitive), as geocoders match. */
export function findFakePlace(name: string): FakePlace | undefined {
  const wanted = name.trim().toLowerCase();
  return fakePlaces.find(
    (place) => place.name.en.toLowerCase() === wanted || place.name.ko === wanted,
  );
}
