import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { npmBin } from './paths'

/** Builds the console when nothing is built yet or a source file is newer than the build. */
export function buildIfStale(root: string): void {
  const built = join(root, 'out', 'renderer', 'index.html')
  if (existsSync(built) && newestChange(join(root, 'src')) <= statSync(built).mtimeMs) return
  console.log('Building Tandem Admin…')
  const result = spawnSync(npmBin(root, 'electron-vite'), ['build'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (result.status !== 0) throw new Error('The build failed')
}

function newestChange(folder: string): number {
  let newest = 0
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs)
  }
  return newest
}
