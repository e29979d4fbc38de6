import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

// Where an emulator keeps its state between runs (the local stack's data folder): one JSON file.

export const loadStateFile = <State>(file: string): State | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as State) : undefined

/** Write then rename, so that a crash mid-write never leaves a truncated state file behind. */
export function saveStateFile(file: string, state: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(state))
  renameSync(temporary, file)
}
