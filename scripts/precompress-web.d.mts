/** See precompress-web.mjs. */
export function precompressWeb(dir: string): void
