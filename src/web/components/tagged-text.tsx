import { cloneElement, Fragment, type ReactElement, type ReactNode } from 'react'

/**
 * A translated text whose parts are marked `<name>…</name>` (not nested), each part rendered as
 * the element given for its name with the part as its content: what react-i18next's `Trans`
 * does for such texts, without its parser (the sign-in pages load this, not `Trans`).
 */
export function TaggedText({ text, tags }: { text: string; tags: Record<string, ReactElement> }) {
  // split() with the two groups gives text, name, content, text, name, content, …, text.
  const parts = text.split(/<(\w+)>(.*?)<\/\1>/)
  const nodes: ReactNode[] = []
  for (let index = 0; index < parts.length; index += 3) {
    const [before, name, content] = parts.slice(index, index + 3)
    if (before) nodes.push(before)
    if (name === undefined) continue
    const tag = tags[name]
    nodes.push(tag ? cloneElement(tag, { key: index }, content) : <Fragment key={index}>{content}</Fragment>)
  }
  return <>{nodes}</>
}
