import Store from 'electron-store'
import type { KeyValueStore } from '../services/ports'

/** Settings and the sealed session in `settings.json` under the app's user data folder. */
export function electronKeyValueStore(): KeyValueStore {
  const store = new Store<Record<string, unknown>>({
    name: 'settings',
    // Keys are names, not paths: `a.b` must not become `{ a: { b } }`.
    accessPropertiesByDotNotation: false,
    // A corrupt file would otherwise stop the app from starting; losing settings is the lesser harm.
    clearInvalidConfig: true,
  })
  return {
    get: (key) => store.get(key),
    // electron-store refuses `undefined`; storing nothing means removing the key.
    set: (key, value) => (value === undefined ? store.delete(key) : store.set(key, value)),
    delete: (key) => store.delete(key),
  }
}
