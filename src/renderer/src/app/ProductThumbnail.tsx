import { Avatar } from '@mantine/core'
import { IconPhoto } from '@tabler/icons-react'

/**
 * A product's picture, small and square, or a placeholder when it has none. Decorative: the
 * product's title beside it names it, so a screen reader does not hear it twice.
 */
export function ProductThumbnail({ src, size = 32 }: { src: string | null; size?: number }) {
  return (
    <Avatar src={src} alt="" radius="sm" size={size}>
      <IconPhoto size={Math.round(size * 0.56)} aria-hidden />
    </Avatar>
  )
}
