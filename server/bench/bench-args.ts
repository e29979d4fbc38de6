// The benchmarks' own arguments, apart from bench-support.ts so that the bench server's bundle
// (bench-server.ts, through bench-data.ts) takes in nothing of the emulators' start-up.

/**
 * `--short`: the benchmark's short form, as CI runs it: a few stores, orders or seconds, every
 * check of correctness still made, its figures printed but not judged against their aims.
 */
export const SHORT = process.argv.includes('--short')
