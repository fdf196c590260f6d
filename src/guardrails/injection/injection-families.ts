/** The families `promptInjection` tells apart; a record's reason names one. */
export const injectionFamilies = {
  override: 'instruction override',
  extraction: 'system prompt extraction',
  role: 'role override',
} as const;

/** One family's name, as a reason says it. */
export type InjectionFamily = (typeof injectionFamilies)[keyof typeof injectionFamilies];
