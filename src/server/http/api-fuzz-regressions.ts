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
 * Counterexamples fast-check found and shrank, kept so they run on every test run (before the
 * generated ones): the requests of each are sent in order, and each answer is checked like a
 * generated one. Add the printed FuzzRequest here when a run finds one, with its fix and the why.
 */
export const keptCounterexamples: { why: string; requests: FuzzRequest[] }[] = [
  {
    why:
      'A refused request seemed to change data_exports: the export an earlier request started is ' +
      'built after its answer. Exports are counted, not hashed, by the check.',
    requests: [
      { op: 'dataRights.startExport', params: {}, query: [], body: { raw: '{}' } },
      { op: 'conversations.delete', params: { id: 'x' }, query: [], body: { raw: '{' } },
    ],
  },
  {
    why:
      "A version number beyond PostgreSQL's integer (9007199254740991) reached the statement and " +
      'answered 500; version numbers are now at most VERSION_NUMBER_MAX, like the column.',
    requests: [
      {
        op: 'prompts.compile',
        params: { id: null },
        query: [],
        body: { json: { values: {}, version: 9007199254740991 } },
      },
    ],
  },
  {
    why:
      'A body over the limit on a Langfuse operation was refused by the body limit in our error ' +
      "shape, not Langfuse's: errors before the handler now take the envelope of the door asked.",
    requests: [
      {
        op: 'langfuse.create',
        params: {},
        query: [],
        body: { raw: JSON.stringify({ text: 'x'.repeat(1024 * 1024) }) },
      },
    ],
  },
]
