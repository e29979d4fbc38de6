/** A copy of `set` with or without `item`: a set held in state is never changed in place. */
export function withMember<T>(set: ReadonlySet<T>, item: T, present: boolean): Set<T> {
  const next = new Set(set)
  if (present) next.add(item)
  else next.delete(item)
  return next
}
