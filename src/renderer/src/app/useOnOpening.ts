import { useState } from 'react'

/**
 * Runs `start` in the render that opens a dialog (React's way to reset state when a prop changes),
 * so that each opening begins afresh, however the last one ended: sent or cancelled.
 */
export function useOnOpening(opened: boolean, start: () => void) {
  const [wasOpened, setWasOpened] = useState(opened)
  if (opened !== wasOpened) {
    setWasOpened(opened)
    if (opened) start()
  }
}
