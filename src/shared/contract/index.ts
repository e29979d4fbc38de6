export * from './enums'
export * from './entities'
export * from './errors'
export * from './calls'
