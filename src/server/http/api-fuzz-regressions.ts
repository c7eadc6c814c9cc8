/**
 * One generated request (api-fuzz-generated.api.test.ts): an operation, its path parameters
 * (null: the seeded object; otherwise the raw, already encoded path segment), its query pairs and
 * its body (JSON, or raw text with an optional Content-Type). `@promptId` in a value stands for the
 * seeded object of that name.
 */
export interface FuzzRequest {
  op: string
  params: Record<string, string | null>
  query: [string, string][]
  body?: { json: unknown } | { raw: string; contentType?: string }
}

/**
 * Counterexamples fast-check found and shrank, kept so they run on every test run (with the
 * generated ones). Add the printed FuzzRequest here when a run finds one, with the fix.
 */
export const keptCounterexamples: FuzzRequest[] = []
