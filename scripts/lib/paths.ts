import { join, resolve } from 'node:path'

/** A command installed by npm in the project at `root`. */
export const npmBin = (root: string, name: string): string =>
  join(root, 'node_modules', '.bin', name)

/** Where the local stack keeps its data: TANDEM_DATA_DIR, else `.tandem` in the project. */
export const stackDataDir = (root: string): string =>
  resolve(process.env.TANDEM_DATA_DIR || join(root, '.tandem'))
