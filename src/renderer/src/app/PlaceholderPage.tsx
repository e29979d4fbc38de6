import { PageHeading } from './PageHeading'

/**
 * Sections left empty (docs/product-rules.md "The console's screens"): their name and nothing else.
 */
export function PlaceholderPage({ title }: { title: string }) {
  return <PageHeading>{title}</PageHeading>
}
