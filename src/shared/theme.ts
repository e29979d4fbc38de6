// Kept apart from ipc.ts (and its zod schemas) so that the renderer's initial bundle stays free of
// zod.

export const THEMES = ['light', 'dark', 'system'] as const
export type Theme = (typeof THEMES)[number]

/** The theme of a first launch, and of a settings file that names none it knows. */
export const DEFAULT_THEME: Theme = 'dark'
