/**
 * Deterministic, realistic-looking prompt data: titles from verbs, objects and audiences, bodies
 * from instruction sentences with {variables}, and tags drawn with a Zipf-like skew (a few tags
 * are on many prompts, most on few), as real tag clouds are.
 */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const verbs = [
  'Summarize',
  'Rewrite',
  'Translate',
  'Draft',
  'Review',
  'Explain',
  'Outline',
  'Critique',
  'Generate',
  'Classify',
  'Extract',
  'Polish',
  'Shorten',
  'Expand',
  'Brainstorm',
  'Plan',
  'Compare',
  'Score',
  'Debug',
  'Refactor',
  'Document',
  'Test',
  'Analyze',
  'Prioritize',
  'Answer',
  'Simplify',
]
export const objects = [
  'meeting notes',
  'customer email',
  'product description',
  'release notes',
  'blog post',
  'job posting',
  'pull request',
  'SQL query',
  'support ticket',
  'sales pitch',
  'research paper',
  'user story',
  'landing page copy',
  'incident report',
  'quarterly plan',
  'survey answers',
  'interview transcript',
  'legal clause',
  'API documentation',
  'onboarding guide',
  'tweet thread',
  'newsletter',
  'bug report',
  'test plan',
  'code snippet',
  'press release',
  'cover letter',
  'marketing brief',
  'design review',
  'error message',
  'FAQ entry',
  'changelog',
  'podcast script',
]
const audiences = [
  'for executives',
  'for beginners',
  'in plain English',
  'in a friendly tone',
  'as bullet points',
  'for a technical audience',
  'in German',
  'for social media',
  'under 100 words',
  'step by step',
  'with examples',
  'for a five-year-old',
  'as a table',
  'in a formal tone',
  'for investors',
  '',
]
export const sentences = [
  'You are an experienced {role} who writes clearly and concisely.',
  'Read the following {input} carefully before answering.',
  'Keep the answer under {length} words and avoid jargon.',
  'Use a {tone} tone that suits {audience}.',
  'List the three most important points first, then the details.',
  'If something is unclear, ask one clarifying question instead of guessing.',
  'Format the result as Markdown with headings and short paragraphs.',
  'Point out risks, open questions and next steps at the end.',
  'Quote the original wording where precision matters.',
  'Do not invent facts; say so when the input does not contain the answer.',
  'Write in {language} and keep product names unchanged.',
  'End with a one-sentence summary that {audience} can act on.',
  'Check the result for spelling and grammar before returning it.',
  'Return valid JSON with the keys "summary", "actions" and "owners".',
]
/** Tags with their weights: the head is common, the tail rare. */
export const tagPool = [
  'writing',
  'email',
  'marketing',
  'code',
  'summary',
  'support',
  'sales',
  'research',
  'translation',
  'product',
  'engineering',
  'hr',
  'legal',
  'finance',
  'social',
  'seo',
  'data',
  'sql',
  'python',
  'javascript',
  'review',
  'meetings',
  'planning',
  'onboarding',
  'docs',
  'design',
  'ux',
  'strategy',
  'customer-success',
  'recruiting',
  'analytics',
  'testing',
  'security',
  'devops',
  'education',
  'healthcare',
  'ecommerce',
  'newsletter',
  'blog',
  'video',
  'podcast',
  'brainstorming',
  'feedback',
  'okr',
  'compliance',
  'chatbot',
  'classification',
  'extraction',
  'tone',
  'draft',
]
const tagWeights = tagPool.map((_, i) => 1 / (i + 1))
const tagWeightTotal = tagWeights.reduce((a, b) => a + b, 0)

export function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!
}

function pickTag(rand: () => number): string {
  let r = rand() * tagWeightTotal
  for (let i = 0; i < tagPool.length; i++) {
    r -= tagWeights[i]!
    if (r <= 0) return tagPool[i]!
  }
  return tagPool[0]!
}

export function title(rand: () => number): string {
  return [pick(rand, verbs), pick(rand, objects), pick(rand, audiences)].filter(Boolean).join(' ')
}

export function description(rand: () => number): string | null {
  return rand() < 0.6 ? `${pick(rand, sentences).replace(/\{(\w+)\}/g, '$1')} ${pick(rand, sentences)}` : null
}

export function tags(rand: () => number): string[] {
  const count = Math.floor(rand() * 4) + 1
  return [...new Set(Array.from({ length: count }, () => pickTag(rand)))]
}

export function body(rand: () => number): string {
  const count = 3 + Math.floor(rand() * 6)
  return Array.from({ length: count }, () => pick(rand, sentences)).join(' ')
}

export const changelogs = [
  'Tighter wording',
  'Added examples',
  'Shorter output',
  'Fixed tone',
  'Clarified the format',
  'More context for the model',
  'Removed jargon',
  'Handles missing input',
  null,
]
