export function flagsOfStartScript(script: string): string[]
export function startFlags(root?: string): string[]
