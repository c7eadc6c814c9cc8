import { useEffect } from 'react'

/** Sets the browser tab's title while the page is shown. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const previous = document.title
    document.title = title ? `${title} · Promptfolio` : 'Promptfolio'
    return () => {
      document.title = previous
    }
  }, [title])
}
