import type { Locator } from '@playwright/test'

/** The texts a control cuts: a select's choices wider than its box, or content that overflows. */
export async function cutTexts(control: Locator): Promise<string[]> {
  return control.evaluate((element) => {
    if (element instanceof HTMLSelectElement) {
      const style = getComputedStyle(element)
      const context = document.createElement('canvas').getContext('2d')
      if (!context) throw new Error('no canvas')
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const room =
        element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)
      return [...element.options]
        .filter((option) => context.measureText(option.text).width > room)
        .map((o) => o.text)
    }
    return element.scrollWidth > element.clientWidth ? [element.textContent ?? ''] : []
  })
}
