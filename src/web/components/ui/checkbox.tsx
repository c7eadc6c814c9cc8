import { Check } from 'lucide-react'
import { type ComponentProps, useState } from 'react'
import { cn } from '../../lib/cn.ts'

/**
 * A checkbox: the element Radix's checkbox renders (a `button` with role checkbox, `aria-checked`
 * and `data-state`, its tick inside while checked), without Radix. Three sign-in pages show one
 * (sign-up's terms, the password resets' revoke-access), and Radix's checkbox with the utilities it
 * brings was 6 KiB gzip of their JavaScript. Every checkbox of the app is a controlled boolean
 * without a `name`, so the hidden input Radix adds inside a form for its submission is left out.
 */
export function Checkbox({
  className,
  checked: checkedProp,
  defaultChecked = false,
  onCheckedChange,
  disabled,
  required,
  onClick,
  onKeyDown,
  ...props
}: Omit<ComponentProps<'button'>, 'value' | 'defaultChecked'> & {
  checked?: boolean
  defaultChecked?: boolean
  required?: boolean
  onCheckedChange?: (checked: boolean) => void
}) {
  const [uncontrolled, setUncontrolled] = useState(defaultChecked)
  const checked = checkedProp ?? uncontrolled
  const state = checked ? 'checked' : 'unchecked'
  return (
    // biome-ignore lint/a11y/useSemanticElements: the styled box Radix's checkbox was; an input cannot hold the tick
    <button
      type="button"
      role="checkbox"
      aria-checked={checked}
      aria-required={required}
      data-state={state}
      data-disabled={disabled ? '' : undefined}
      disabled={disabled}
      value="on"
      className={cn(
        'peer flex size-4 shrink-0 cursor-pointer items-center justify-center rounded-[4px] border border-input bg-card shadow-xs data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground aria-[invalid=true]:border-destructive',
        className,
      )}
      {...props}
      // As a checkbox: Space toggles it, Enter does not (it would also submit the form).
      onKeyDown={(event) => {
        onKeyDown?.(event)
        if (!event.defaultPrevented && event.key === 'Enter') event.preventDefault()
      }}
      onClick={(event) => {
        onClick?.(event)
        if (event.defaultPrevented) return
        if (checkedProp === undefined) setUncontrolled(!checked)
        onCheckedChange?.(!checked)
      }}
    >
      {checked && (
        <span data-state={state} data-disabled={disabled ? '' : undefined} style={{ pointerEvents: 'none' }}>
          <Check className="size-3.5" strokeWidth={3} />
        </span>
      )}
    </button>
  )
}
