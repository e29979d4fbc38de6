import {
  SegmentedControl,
  VisuallyHidden,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core'
import { IconDeviceDesktop, IconMoon, IconSun, type Icon } from '@tabler/icons-react'

const CHOICES: { value: MantineColorScheme; label: string; icon: Icon }[] = [
  { value: 'light', label: 'Light', icon: IconSun },
  { value: 'dark', label: 'Dark', icon: IconMoon },
  // Mantine's "auto" follows the operating system.
  { value: 'auto', label: 'System', icon: IconDeviceDesktop },
]

/** Light, dark or system; saved in the settings by the color scheme manager (app/theme.ts). */
export function ThemeSwitch() {
  const { colorScheme, setColorScheme } = useMantineColorScheme()
  return (
    <SegmentedControl<MantineColorScheme>
      role="radiogroup"
      aria-label="Theme"
      size="xs"
      value={colorScheme}
      onChange={setColorScheme}
      data={CHOICES.map(({ value, label, icon: ChoiceIcon }) => ({
        value,
        label: (
          <>
            <ChoiceIcon size={16} stroke={1.75} aria-hidden style={{ display: 'block' }} />
            <VisuallyHidden>{label}</VisuallyHidden>
          </>
        ),
      }))}
    />
  )
}
