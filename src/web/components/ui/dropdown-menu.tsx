import { Check } from 'lucide-react'
import { DropdownMenu as Menu } from 'radix-ui'
import { type ComponentProps, useLayoutEffect, useState } from 'react'
import { cn } from '../../lib/cn.ts'

/**
 * Not modal: a modal menu hides the rest of the page with aria-hidden while it stays focusable
 * underneath (axe: aria-hidden-focus). The menu still keeps the keyboard (Tab does not leave it,
 * Escape closes it and returns focus to its button) and closes on a click outside.
 */
export function DropdownMenu({ modal = false, ...props }: ComponentProps<typeof Menu.Root>) {
  return <Menu.Root modal={modal} {...props} />
}
export const DropdownMenuTrigger = Menu.Trigger

export function DropdownMenuContent({
  className,
  sideOffset = 6,
  align = 'end',
  ...props
}: ComponentProps<typeof Menu.Content>) {
  // Inside the page's main landmark (not loose in <body>), so assistive technology finds the open
  // menu within the page's structure. The menu is fixed-positioned either way. Looked up once the
  // page is committed: during the first render of a new layout (the top bar right after signing in)
  // the previous page's <main> is still in the document, and a menu portalled there never shows.
  const [container, setContainer] = useState<HTMLElement | null>(null)
  useLayoutEffect(() => setContainer(document.querySelector('main')), [])
  return (
    <Menu.Portal container={container}>
      <Menu.Content
        sideOffset={sideOffset}
        align={align}
        className={cn(
          'z-50 min-w-44 overflow-hidden rounded-lg border bg-card p-1 text-sm shadow-lg data-[state=open]:animate-[pf-fade-in_100ms_ease-out]',
          className,
        )}
        {...props}
      />
    </Menu.Portal>
  )
}

const item =
  'relative flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 outline-none select-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground [&_svg]:size-4 [&_svg]:text-muted-foreground'

export function DropdownMenuItem({
  className,
  destructive,
  ...props
}: ComponentProps<typeof Menu.Item> & { destructive?: boolean }) {
  return (
    <Menu.Item
      className={cn(
        item,
        destructive && 'text-destructive data-[highlighted]:text-destructive [&_svg]:text-destructive',
        className,
      )}
      {...props}
    />
  )
}

export function DropdownMenuCheckboxItem({
  className,
  children,
  ...props
}: ComponentProps<typeof Menu.CheckboxItem>) {
  return (
    <Menu.CheckboxItem className={cn(item, 'pl-8', className)} {...props}>
      <span className="absolute left-2 flex size-4 items-center justify-center">
        <Menu.ItemIndicator>
          <Check />
        </Menu.ItemIndicator>
      </span>
      {children}
    </Menu.CheckboxItem>
  )
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return (
    <Menu.Label
      className={cn('px-2 py-1.5 text-xs font-medium text-muted-foreground', className)}
      {...props}
    />
  )
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />
}
