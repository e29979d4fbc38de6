import type { LineItem } from '@shared/contract'

// docs/product-rules.md "The console's screens": a line has a title or else a name, a quantity or
// else a current quantity.
export const lineTitle = (line: LineItem): string => line.title ?? line.name ?? '-'
