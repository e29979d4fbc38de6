// Kept apart from ipc.ts (and its zod schemas) so that the renderer's bundle stays small.

/** The browser host's HTTP routes (browser mode); every call carries the per-launch key. */
export const BROWSER_HOST = {
  invokePath: '/__tandem/invoke/',
  eventsPath: '/__tandem/events',
  keyHeader: 'x-tandem-key',
  keyParam: 'key',
  /** What the stack prints before the console's address; the missing-key page quotes it. */
  announcement: 'Tandem Admin is running at',
} as const
