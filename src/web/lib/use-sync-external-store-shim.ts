/**
 * What `use-sync-external-store/shim` exports under React 18 and later (React's own hook), without
 * the shim's fallback for older React that react-i18next would otherwise bring to every page
 * (vite.config.ts aliases the shim here).
 */
export { useSyncExternalStore } from 'react'
