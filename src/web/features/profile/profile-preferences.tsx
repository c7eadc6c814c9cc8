import { useEffect, useRef } from 'react'
import { applyProfilePreferences, useProfile } from './queries.ts'

/**
 * Inside the signed-in app: once the profile has loaded, its language and theme become this
 * browser's (a profile saved on another device wins over this browser's last choice).
 */
export function ProfilePreferences() {
  const { data } = useProfile()
  const applied = useRef(false)
  useEffect(() => {
    if (!data || applied.current) return
    applied.current = true
    applyProfilePreferences(data)
  }, [data])
  return null
}
