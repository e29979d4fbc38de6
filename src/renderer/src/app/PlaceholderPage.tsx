import { PageHeading } from './PageHeading'

/** Sections SPEC.md leaves empty: their name and nothing else. */
export function PlaceholderPage({ title }: { title: string }) {
  return <PageHeading>{title}</PageHeading>
}
